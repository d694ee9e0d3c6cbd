#if canImport(Glibc)
import Glibc
#endif
import H2JJPEG
import H2JMetadata
import H2JSupport

/// Whether a file already at an output path is one heic2jpg wrote for this source: the
/// only kind of existing file a run may skip as done or replace with `--overwrite`.
/// Anything else (a camera JPEG beside its HEIC, a file of the user's) is never touched.
///
/// The evidence, in order:
/// - the provenance mark (XMP `h2j:sourceName`) names the source's file name;
/// - where no mark was asked for (`--no-mark`, or a copied JPEG, which gets none), the
///   modification time equals the source's to the nanosecond, since every output gets
///   its source's times.
/// A mark that names another file is decisive: that output belongs to someone else.
enum OutputOwnership {
    /// How much of the existing file is read to find its header segments: the EXIF and
    /// XMP segments (64 KB each) and an ICC profile of any real size fit.
    static let headerBytes = 1 << 20

    /// `existing` is the file at the output path; `sourceName` the name a mark would
    /// record (`ConversionContext.sourceName`); `sourceTimes` the source's times (nil
    /// for stdin); `markExpected` whether this run would have written a mark.
    static func isOurs(_ existing: SourceFile, sourceName: String, sourceTimes: FileTimes?, markExpected: Bool) -> Bool {
        if let mark = mark(of: existing) { return mark.sourceName == sourceName }
        guard !markExpected, let sourceTimes else { return false }
        let modified = existing.times.modification
        return modified.tv_sec == sourceTimes.modification.tv_sec && modified.tv_nsec == sourceTimes.modification.tv_nsec
    }

    /// The provenance mark in the file's first XMP segment, if it is a JPEG with one.
    static func mark(of file: SourceFile) -> ProvenanceMark? {
        guard let header = try? file.prefix(headerBytes), let segments = JPEGSegments(header),
              let packet = segments.xmpPacket else { return nil }
        return ProvenanceMark(xmp: packet)
    }
}
