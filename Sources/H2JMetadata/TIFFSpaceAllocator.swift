/// Hands out even offsets for pieces of a TIFF blob being packed, around ranges that are
/// reserved (bytes that must keep their offsets, such as a maker note whose internal
/// offsets count from the TIFF header).
///
/// First fit: each piece goes into the first free gap, after the 8-byte header, where it
/// fits at an even offset; gaps before and between reserved ranges are used as pieces
/// fit, everything else follows the last reserved range.
///
/// Invariants: pieces never overlap each other, the header or a reserved range; every
/// offset is even; arithmetic is overflow-checked (`place` returns nil instead).
struct TIFFSpaceAllocator {
    /// Free space: bounded gaps in offset order, then everything from `tail` on.
    private var gaps: [Range<Int>] = []
    private var tail: Int
    /// One past the last byte placed or reserved.
    private(set) var end: Int

    /// `reserved` ranges must lie at or after byte 8; they may overlap each other.
    init(reserved: [Range<Int>]) {
        var cursor = 8
        for range in reserved.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > cursor { gaps.append(cursor..<range.lowerBound) }
            cursor = max(cursor, range.upperBound)
        }
        tail = cursor
        end = cursor
    }

    /// An even offset for `length` bytes, or nil when the offset would overflow.
    mutating func place(_ length: Int) -> Int? {
        guard length >= 0 else { return nil }
        for (i, gap) in gaps.enumerated() {
            let start = gap.lowerBound + gap.lowerBound % 2
            guard start <= gap.upperBound, length <= gap.upperBound - start else { continue }
            gaps[i] = (start + length)..<gap.upperBound
            return start
        }
        let (start, alignOverflow) = tail.addingReportingOverflow(tail % 2)
        let (next, overflow) = start.addingReportingOverflow(length)
        guard !alignOverflow, !overflow else { return nil }
        tail = next
        end = max(end, next)
        return start
    }
}
