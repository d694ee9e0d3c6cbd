import H2JBatch
import H2JJob
import H2JMetadata

/// One EXIF entry as `compare` counts it: which IFD it is in and its tag.
struct EXIFTagKey: Hashable, Sendable {
    let ifd: EXIFIFDKind
    let tag: UInt16
}

extension EXIFDirectory {
    /// The IFDs `compare` counts: the main image's (IFD0, ExifIFD, GPS, Interop) and the
    /// thumbnail's (IFD1). SubIFDs and IFD2+ are walked by the reader only to keep bytes.
    static let countedIFDs: Set<EXIFIFDKind> = [.ifd0, .exif, .gps, .interop, .ifd1]

    /// Distinct (IFD, tag) pairs in the counted IFDs, pointer tags included; a tag
    /// repeated within one IFD counts once.
    var tagKeys: Set<EXIFTagKey> {
        var keys = Set<EXIFTagKey>()
        for ifd in ifds where Self.countedIFDs.contains(ifd.kind) {
            for entry in ifd.entries { keys.insert(EXIFTagKey(ifd: ifd.kind, tag: entry.tag)) }
        }
        return keys
    }
}

/// How an output's EXIF entries relate to its source's, by (IFD, tag): kept (in both),
/// dropped (only in the source) and added (only in the output, e.g. an ImageUniqueID
/// the converter writes).
struct EXIFTagTally: Equatable, Sendable {
    let source: Int
    let output: Int
    let kept: Int
    let dropped: Int
    let added: Int

    init(source: Set<EXIFTagKey>, output: Set<EXIFTagKey>) {
        self.source = source.count
        self.output = output.count
        kept = source.intersection(output).count
        dropped = source.subtracting(output).count
        added = output.subtracting(source).count
    }
}
