#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JJPEG
import H2JMetadata
import H2JSupport

/// Whether a file already at an output path is one heic2jpg wrote for this source: the
/// only kind of existing file a run may skip as done or replace with `--overwrite`.
/// Anything else (a camera JPEG beside its HEIC, a file of the user's) is never touched.
///
/// The evidence, in order:
/// - the provenance mark (XMP `h2j:sourceName`) names the source's file name; a strip
///   mode mark, which names no file, records the source's SHA-256 (`h2j:sourceSHA256`),
///   so the source is hashed to compare (or the state records the path as its output);
/// - with no mark, the `--state` database records the path as this source's output
///   (whatever the options of the run that wrote it, `--no-mark` included);
/// - where no mark was asked for (`--no-mark`, or a copied JPEG, which gets none), the
///   modification time equals the source's to the nanosecond, since every output gets
///   its source's times.
/// A mark that names another file is decisive: that output belongs to someone else.
enum OutputOwnership {
    /// How much of the existing file is read to find its header segments: first 64 KiB,
    /// which holds a typical phone photo's EXIF, XMP and ICC (so a rerun over an archive
    /// reads little of each output); only a header running past that is read again, up
    /// to 1 MiB, where full-size EXIF and XMP segments, Extended XMP and any real ICC
    /// profile fit.
    static let headerReads = [1 << 16, 1 << 20]

    /// `existing` is the file at the output path and `mark` its mark (`mark(of:)`);
    /// `sourceName` the name a mark would record (`Endpoint.fileName`); `sourceDigest`
    /// the source's SHA-256, asked only for a mark that names no file; `sourceTimes` the
    /// source's times (nil for stdin); `markExpected` whether this run would have written
    /// a mark; `recorded` whether the state records the path as this source's output.
    static func isOurs(_ existing: SourceFile, mark: ProvenanceMark?, sourceName: String, sourceDigest: () -> String?,
                       sourceTimes: FileTimes?, markExpected: Bool, recorded: Bool = false) -> Bool {
        if let mark {
            if let name = mark.sourceName { return name == sourceName }
            return recorded || mark.sourceSHA256 == sourceDigest()
        }
        if recorded { return true }
        guard !markExpected, let sourceTimes else { return false }
        let modified = existing.times.modification
        return modified.tv_sec == sourceTimes.modification.tv_sec && modified.tv_nsec == sourceTimes.modification.tv_nsec
    }

    /// The provenance mark in the file's first XMP segment, if it is a JPEG with one.
    static func mark(of file: SourceFile) -> ProvenanceMark? {
        for count in headerReads {
            guard let header = try? file.prefix(count), header.starts(with: [0xFF, 0xD8]) else { return nil }
            if let segments = JPEGSegments(header) { return segments.xmpPacket.flatMap(ProvenanceMark.init(xmp:)) }
            // A header that does not end within what was read: read more, if there is more.
            if header.count < count { return nil }
        }
        return nil
    }
}
