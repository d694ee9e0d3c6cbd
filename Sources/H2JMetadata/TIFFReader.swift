import H2JSupport

/// One 12-byte IFD entry, as stored, with where its value lives.
///
/// Invariant: `entryOffset ..< entryOffset + 12` lies inside the TIFF bytes it was read
/// from. `valueRange` is non-nil only when the whole value lies inside them.
package struct TIFFEntry: Sendable, Equatable {
    package let tag: UInt16
    package let type: UInt16
    package let count: UInt32
    /// Offset of the 12-byte entry from the start of the TIFF header.
    package let entryOffset: Int
    /// count × element size; nil for an unknown type or when the product overflows.
    package let byteLength: Int?
    /// Where the value starts: `entryOffset + 8` when inline (≤ 4 bytes), else the stored
    /// offset. nil when `byteLength` is nil.
    package let valueOffset: Int?
    /// The value's bytes, when they lie wholly inside the TIFF data.
    package let valueRange: Range<Int>?

    /// True when the value sits in the entry's own 4-byte value field.
    package var isInline: Bool { byteLength.map { $0 <= 4 } ?? false }
}

/// One image file directory as stored.
///
/// Invariant: `directoryRange` lies inside the TIFF bytes, and no two IFDs of one
/// `EXIFDirectory` have overlapping directory ranges.
package struct TIFFIFD: Sendable, Equatable {
    package let kind: EXIFIFDKind
    /// Offset of the 2-byte entry count.
    package let offset: Int
    package let entries: [TIFFEntry]
    /// Offset of the 4-byte next-IFD field; nil when the data ends before it.
    package let nextPointerOffset: Int?
    /// The next-IFD field's value (0 when absent).
    package let nextIFDOffset: UInt32
    /// Index in `EXIFDirectory.ifds` of the IFD that points here; nil for IFD0.
    package let parent: Int?

    /// The count, the entries and (when present) the next-IFD field.
    package var directoryRange: Range<Int> {
        offset..<(offset + 2 + 12 * entries.count + (nextPointerOffset == nil ? 0 : 4))
    }

    /// The first entry with `tag`.
    package func entry(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
}

/// An IFD that a pointer leads to but that could not be read.
package struct TIFFUnreadableIFD: Sendable, Equatable {
    package let kind: EXIFIFDKind
    package let offset: Int
    /// Index in `EXIFDirectory.ifds` of the IFD holding the pointer.
    package let parent: Int
    package let error: EXIFError
}

/// Reads the structure of a TIFF blob (an EXIF block without the `Exif\0\0` prefix).
///
/// Walks IFD0, then breadth-first every IFD reached through ExifIFD (0x8769), GPS
/// (0x8825), Interop (0xA005) and SubIFDs (0x014A) pointers in any IFD, and the
/// next-IFD chain from IFD0 (IFD1, then IFD2+). Both byte orders.
///
/// Invariants: never traps and never loops. Offsets are checked before use; an IFD is
/// read at most once (visited check) and never when its directory overlaps one already
/// read; at most `maxIFDs` IFDs are read; allocation is bounded by the input size,
/// never by a stored count. A broken IFD0 throws; any other broken IFD is recorded in
/// `EXIFDirectory.unreadable` and skipped.
package enum TIFFReader {
    /// Upper bound on IFDs read from one blob.
    package static let maxIFDs = 32
    /// Upper bound on SubIFDs (0x014A) offsets followed from one IFD.
    package static let maxSubIFDsPerIFD = 8

    package static func read(_ tiff: [UInt8]) throws(EXIFError) -> EXIFDirectory {
        guard TIFFHeaderLocator.hasTIFFMagic(tiff, at: 0), tiff.count >= 8 else { throw .badTIFFHeader }
        let reader = ByteReader(tiff, bigEndian: tiff[0] == 0x4D)
        guard let ifd0Offset = reader.u32(4) else { throw .badTIFFHeader }

        var ifds: [TIFFIFD] = []
        var unreadable: [TIFFUnreadableIFD] = []
        var queue: [(kind: EXIFIFDKind, offset: Int, parent: Int?)] = [(.ifd0, Int(ifd0Offset), nil)]
        var head = 0
        walk: while head < queue.count {
            let (kind, offset, parent) = queue[head]
            head += 1
            do throws(EXIFError) {
                guard ifds.count < maxIFDs else { throw EXIFError.tooManyIFDs(ifd: kind, offset: offset) }
                // Visited check (at most `maxIFDs` to compare, so a linear scan is fine).
                guard !ifds.contains(where: { $0.offset == offset }) else {
                    throw EXIFError.ifdLoop(ifd: kind, offset: offset)
                }
                let ifd = try readIFD(reader, kind: kind, offset: offset, parent: parent, existing: ifds)
                let index = ifds.count
                ifds.append(ifd)
                queue += children(of: ifd, index: index, reader: reader, unreadable: &unreadable)
            } catch {
                guard let parent else { throw error }
                unreadable.append(TIFFUnreadableIFD(kind: kind, offset: offset, parent: parent, error: error))
                if case .tooManyIFDs = error { break walk }
            }
        }
        return EXIFDirectory(tiff: tiff, bigEndian: reader.bigEndian, ifds: ifds, unreadable: unreadable)
    }

    /// Reads the directory at `offset` without following anything.
    static func readIFD(_ r: ByteReader, kind: EXIFIFDKind, offset: Int, parent: Int?,
                        existing: [TIFFIFD]) throws(EXIFError) -> TIFFIFD {
        guard offset >= 8 else { throw .ifdOffsetInsideHeader(ifd: kind, offset: offset) }
        guard let n16 = r.u16(offset) else { throw .ifdOffsetOutOfRange(ifd: kind, offset: offset, tiffSize: r.count) }
        let n = Int(n16)
        // offset < r.count and n ≤ 65535, so these sums cannot overflow.
        let entriesEnd = offset + 2 + 12 * n
        guard entriesEnd <= r.count else {
            throw .ifdTruncated(ifd: kind, offset: offset, entries: n, tiffSize: r.count)
        }
        let next = r.u32(entriesEnd)
        let span = offset..<(entriesEnd + (next == nil ? 0 : 4))
        if let other = existing.first(where: { $0.directoryRange.overlaps(span) }) {
            throw .ifdOverlaps(ifd: kind, offset: offset, other: other.kind)
        }
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(n)
        for i in 0..<n {
            entries.append(readEntry(r, at: offset + 2 + 12 * i))
        }
        return TIFFIFD(kind: kind, offset: offset, entries: entries,
                       nextPointerOffset: next == nil ? nil : entriesEnd,
                       nextIFDOffset: next ?? 0, parent: parent)
    }

    /// Decodes the 12-byte entry at `e`. Entries outside the data decode as tag 0,
    /// type 0 (unknown), which locates no value.
    static func readEntry(_ r: ByteReader, at e: Int) -> TIFFEntry {
        guard r.contains(offset: e, length: 12) else {
            return TIFFEntry(tag: 0, type: 0, count: 0, entryOffset: e, byteLength: nil, valueOffset: nil, valueRange: nil)
        }
        // Hot path (every entry of every IFD): the 12 bytes are known to be in range, so
        // read the array directly instead of through four optional-returning reads.
        let b = r.bytes, be = r.bigEndian
        let tag = be ? UInt16(b[e]) << 8 | UInt16(b[e + 1]) : UInt16(b[e + 1]) << 8 | UInt16(b[e])
        let type = be ? UInt16(b[e + 2]) << 8 | UInt16(b[e + 3]) : UInt16(b[e + 3]) << 8 | UInt16(b[e + 2])
        let count = word(b, e + 4, be), field = word(b, e + 8, be)
        var byteLength: Int?
        if let size = TIFFFieldType.size(of: type) {
            let (product, overflow) = Int(count).multipliedReportingOverflow(by: size)
            byteLength = overflow ? nil : product
        }
        var valueOffset: Int?
        var valueRange: Range<Int>?
        if let byteLength {
            let start = byteLength <= 4 ? e + 8 : Int(field)
            valueOffset = start
            if r.contains(offset: start, length: byteLength) { valueRange = start..<(start + byteLength) }
        }
        return TIFFEntry(tag: tag, type: type, count: count, entryOffset: e,
                         byteLength: byteLength, valueOffset: valueOffset, valueRange: valueRange)
    }

    /// The 32-bit word at `o`; the caller guarantees `o + 4 <= b.count`.
    private static func word(_ b: [UInt8], _ o: Int, _ be: Bool) -> UInt32 {
        let w0 = UInt32(b[o]), w1 = UInt32(b[o + 1]), w2 = UInt32(b[o + 2]), w3 = UInt32(b[o + 3])
        return be ? w0 << 24 | w1 << 16 | w2 << 8 | w3 : w3 << 24 | w2 << 16 | w1 << 8 | w0
    }

    /// The IFDs `ifd` points at: sub-IFD pointer tags (first of each tag only) and, for
    /// IFD0/IFD1/IFD2+, the next-IFD chain. Malformed pointers go to `unreadable`.
    private static func children(of ifd: TIFFIFD, index: Int, reader: ByteReader,
                                 unreadable: inout [TIFFUnreadableIFD]) -> [(kind: EXIFIFDKind, offset: Int, parent: Int?)] {
        var result: [(kind: EXIFIFDKind, offset: Int, parent: Int?)] = []
        var seenTags: [UInt16] = []  // at most the four pointer tags
        for entry in ifd.entries {
            guard let target = EXIFTag.pointerTarget(entry.tag), !seenTags.contains(entry.tag) else { continue }
            seenTags.append(entry.tag)
            let isPointerType = entry.type == TIFFFieldType.long || entry.type == TIFFFieldType.ifd
                || entry.type == TIFFFieldType.short
            let maxCount = target == .subIFD ? UInt32(maxSubIFDsPerIFD) : 1
            guard isPointerType, entry.count >= 1, let range = entry.valueRange else {
                unreadable.append(TIFFUnreadableIFD(
                    kind: target, offset: entry.valueOffset ?? -1, parent: index,
                    error: .badPointer(ifd: ifd.kind, tag: entry.tag, type: entry.type, count: entry.count)))
                continue
            }
            let size = entry.type == TIFFFieldType.short ? 2 : 4
            for i in 0..<Int(min(entry.count, maxCount)) {
                let at = range.lowerBound + i * size
                let value = size == 2 ? reader.u16(at).map(UInt32.init) : reader.u32(at)
                if let value { result.append((target, Int(value), index)) }
            }
        }
        let chained: EXIFIFDKind? = switch ifd.kind {
        case .ifd0: .ifd1
        case .ifd1, .laterIFD: .laterIFD
        default: nil
        }
        if let chained, ifd.nextIFDOffset != 0 {
            result.append((chained, Int(ifd.nextIFDOffset), index))
        }
        return result
    }
}
