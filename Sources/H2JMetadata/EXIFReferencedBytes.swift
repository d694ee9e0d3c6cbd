/// Which bytes of a TIFF blob something points at, so that the rest can be trimmed.
///
/// Referenced: the 8-byte header; every IFD directory (count, entries, next pointer);
/// every out-of-line value (the maker note included); every offset/length data range
/// (JPEGInterchangeFormat/Length, StripOffsets/ByteCounts, TileOffsets/ByteCounts).
///
/// Not counted, because no reader could use them anyway: values and data ranges that do
/// not lie wholly inside the data, values of unknown field types (their size is
/// unknown), and IFDs that could not be read (`EXIFDirectory.unreadable`: out of range,
/// truncated, looping, overlapping, over the IFD budget). Counting, say, a value whose
/// hostile count runs past the end would pin every byte after its offset and could cost
/// the whole EXIF for one broken entry.
///
/// Computed once per directory; the fitter asks it for several extents.
struct EXIFReferencedBytes {
    /// Indices in `dir.ifds` of IFD1 and every IFD reached from it (IFD2+, its sub-IFDs).
    let ifd1Family: Set<Int>
    /// One past the last byte the IFD at each index references (its directory included).
    let endOfIFD: [Int]

    init(_ dir: EXIFDirectory) {
        ifd1Family = Self.ifd1Family(dir)
        endOfIFD = dir.ifds.map { ifd in
            Self.ranges(of: ifd, in: dir).reduce(0) { max($0, $1.upperBound) }
        }
    }

    /// Indices in `dir.ifds` of IFD1 and every IFD reached from it.
    static func ifd1Family(_ dir: EXIFDirectory) -> Set<Int> {
        var family: Set<Int> = []
        if let ifd1 = dir.index(of: .ifd1) {
            family.insert(ifd1)
            // Parents always precede children, so one forward pass suffices.
            for (i, ifd) in dir.ifds.enumerated() where i > ifd1 {
                if let p = ifd.parent, family.contains(p) { family.insert(i) }
            }
        }
        return family
    }

    /// One past the last referenced byte, counting the IFDs whose index satisfies
    /// `include`. At least 8 (the header).
    func extent(including include: (Int) -> Bool) -> Int {
        var end = 8
        for (i, ifdEnd) in endOfIFD.enumerated() where include(i) { end = max(end, ifdEnd) }
        return end
    }

    /// One past the last byte referenced by anything.
    var extentOfAll: Int { extent { _ in true } }

    /// One past the last byte referenced by anything outside IFD1's family.
    var extentWithoutIFD1: Int { extent { !ifd1Family.contains($0) } }

    /// The byte ranges one IFD references that lie wholly inside the data.
    static func ranges(of ifd: TIFFIFD, in dir: EXIFDirectory) -> [Range<Int>] {
        var result = [ifd.directoryRange]
        // Out-of-line values, and the blocks of the first entry of each offsets tag.
        var offsetTags: [UInt16] = []  // at most the three offsets tags
        for entry in ifd.entries {
            if !entry.isInline, let range = entry.valueRange { result.append(range) }
            guard let lengthsTag = EXIFTag.lengthsTag(forOffsets: entry.tag), !offsetTags.contains(entry.tag) else { continue }
            offsetTags.append(entry.tag)
            guard let lengthsEntry = ifd.entry(lengthsTag), let offsets = dir.unsignedIntegers(entry),
                  let lengths = dir.unsignedIntegers(lengthsEntry) else { continue }
            for (start, length) in zip(offsets, lengths) {
                if let range = inside(start: Int(start), length: Int(length), size: dir.tiff.count) { result.append(range) }
            }
        }
        return result
    }

    /// `start ..< start+length` when it lies wholly inside `0..<size`.
    static func inside(start: Int, length: Int, size: Int) -> Range<Int>? {
        let (end, overflow) = start.addingReportingOverflow(length)
        guard start >= 0, length >= 0, !overflow, end <= size else { return nil }
        return start..<end
    }
}
