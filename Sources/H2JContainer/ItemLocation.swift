import H2JSupport

/// Where one item's bytes lie, from the `iloc` box (ISO/IEC 14496-12 §8.11.3).
///
/// Invariant: every `Extent` has `offset >= 0` and `length >= 0`; the base offset is
/// already added. Whether an extent lies inside the file is checked when the data is
/// read (`HEIFStructure.itemData`), since only then is the file size known.
package struct ItemLocation: Sendable, Equatable {
    /// Where the extents' offsets point (`construction_method`).
    package enum Construction: Sendable, Equatable {
        /// 0: byte ranges of the file (or of the file `dataReferenceIndex` names).
        case file
        /// 1: byte ranges of the payload of `meta`'s `idat` box.
        case idat
        /// 2: byte ranges of another item's data. Not supported.
        case itemOffset
    }

    /// One byte range of the item's data. The data is the concatenation of all extents.
    package struct Extent: Sendable, Equatable {
        /// Start in the file (or `idat` payload), `base_offset` included.
        package let offset: Int
        /// Byte count; 0 means "up to the end of the file (or `idat`)".
        package let length: Int
    }

    package let construction: Construction
    /// 0 means "this file"; any other value names a `dref` entry, i.e. another file.
    package let dataReferenceIndex: Int
    package let extents: [Extent]
}

extension ItemLocation {
    /// Parses an `iloc` box (versions 0, 1 and 2) into a table keyed by item ID. The first
    /// entry of an ID wins (the format allows one per item).
    ///
    /// Field sizes must be 0, 4 or 8 bytes. Extents cost no bytes when both sizes are 0,
    /// so the total extent count is capped by `HEIFLimits.maxExtents` before any is stored.
    static func parseTable(_ reader: ByteReader, _ box: BoxHeader) throws(HEIFError) -> [UInt32: ItemLocation] {
        var cursor = FieldCursor(reader: reader, offset: box.payloadStart, end: box.end)
        let version = try cursor.u8()
        guard version <= 2 else { throw .malformedBox("iloc", reason: "version \(version) is not 0, 1 or 2") }
        try cursor.skip(3)
        let sizes = try cursor.u8(), moreSizes = try cursor.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0xF), baseOffsetSize = Int(moreSizes >> 4)
        // In version 0 the low nibble is reserved.
        let indexSize = version >= 1 ? Int(moreSizes & 0xF) : 0
        for (field, size) in [("offset_size", offsetSize), ("length_size", lengthSize),
                              ("base_offset_size", baseOffsetSize), ("index_size", indexSize)] where ![0, 4, 8].contains(size) {
            throw .malformedBox("iloc", reason: "\(field) is \(size); it must be 0, 4 or 8")
        }
        let itemCount = version < 2 ? Int(try cursor.u16()) : Int(try cursor.u32())
        guard itemCount <= HEIFLimits.maxItems else {
            throw .limitExceeded("'iloc' declares \(itemCount) items, more than \(HEIFLimits.maxItems)")
        }
        var table: [UInt32: ItemLocation] = [:]
        var totalExtents = 0
        for _ in 0..<itemCount {
            let id = version < 2 ? UInt32(try cursor.u16()) : try cursor.u32()
            let construction = version >= 1 ? try Self.construction(try cursor.u16() & 0xF, item: id) : .file
            let dataReferenceIndex = Int(try cursor.u16())
            let baseOffset = try cursor.value(bytes: baseOffsetSize, field: "base_offset", item: id)
            let extentCount = Int(try cursor.u16())
            totalExtents += extentCount
            guard totalExtents <= HEIFLimits.maxExtents else {
                throw .limitExceeded("'iloc' declares more than \(HEIFLimits.maxExtents) extents")
            }
            var extents: [Extent] = []
            extents.reserveCapacity(extentCount)
            for _ in 0..<extentCount {
                _ = try cursor.value(bytes: indexSize, field: "extent_index", item: id)
                let offset = try cursor.value(bytes: offsetSize, field: "extent_offset", item: id)
                let length = try cursor.value(bytes: lengthSize, field: "extent_length", item: id)
                let (start, overflow) = baseOffset.addingReportingOverflow(offset)
                guard !overflow else {
                    throw .malformedBox("iloc", reason: "item \(id)'s base_offset \(baseOffset) plus extent_offset \(offset) overflows")
                }
                extents.append(Extent(offset: start, length: length))
            }
            if table[id] == nil {
                table[id] = ItemLocation(construction: construction, dataReferenceIndex: dataReferenceIndex, extents: extents)
            }
        }
        return table
    }

    private static func construction(_ method: UInt16, item: UInt32) throws(HEIFError) -> Construction {
        switch method {
        case 0: return .file
        case 1: return .idat
        case 2: return .itemOffset
        default: throw .malformedBox("iloc", reason: "item \(item) has the reserved construction method \(method)")
        }
    }
}

/// Sequential big-endian reads inside one box; running past its end is `truncatedBox`.
private struct FieldCursor {
    let reader: ByteReader
    var offset: Int
    let end: Int

    private mutating func advance(_ count: Int) throws(HEIFError) -> Int {
        let start = offset
        guard count <= end - start else { throw .truncatedBox("iloc") }
        offset += count
        return start
    }

    mutating func skip(_ count: Int) throws(HEIFError) { _ = try advance(count) }

    mutating func u8() throws(HEIFError) -> UInt8 {
        guard let value = reader.u8(try advance(1)) else { throw .truncatedBox("iloc") }
        return value
    }

    mutating func u16() throws(HEIFError) -> UInt16 {
        guard let value = reader.u16(try advance(2)) else { throw .truncatedBox("iloc") }
        return value
    }

    mutating func u32() throws(HEIFError) -> UInt32 {
        guard let value = reader.u32(try advance(4)) else { throw .truncatedBox("iloc") }
        return value
    }

    /// An unsigned field of 0 (absent, value 0), 4 or 8 bytes; values above `Int.max` are malformed.
    mutating func value(bytes: Int, field: String, item: UInt32) throws(HEIFError) -> Int {
        switch bytes {
        case 4:
            return Int(try u32())
        case 8:
            guard let raw = reader.u64(try advance(8)) else { throw .truncatedBox("iloc") }
            guard raw <= UInt64(Int.max) else { throw .malformedBox("iloc", reason: "item \(item)'s \(field) \(raw) is too large") }
            return Int(raw)
        default:
            return 0
        }
    }
}
