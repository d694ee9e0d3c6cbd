import H2JSupport

extension HEIFStructure {
    /// The bytes of item `id`: its `iloc` extents concatenated, read from `source`
    /// (construction method 0) or from `idat` (method 1). Only the item's byte ranges are
    /// read, and nothing is read until every extent is known to lie inside the file and
    /// the total is at most `maxBytes`.
    ///
    /// A malformed `iloc` is reported here, not by `read`, so files whose item data is never
    /// needed open as before.
    package func itemData(_ id: UInt32, from source: ByteSource, maxBytes: Int) throws(HEIFError) -> [UInt8] {
        let (construction, ranges, total) = try resolvedExtents(of: id, size: source.size)
        guard total <= maxBytes else { throw .limitExceeded("item \(id)'s data is \(total) bytes, over the \(maxBytes)-byte limit") }
        var data: [UInt8] = []
        data.reserveCapacity(total)
        for range in ranges {
            if construction == .idat {
                data += idat[range]
            } else {
                data += try source.containerBytes(at: range.lowerBound, count: range.count)
            }
        }
        return data
    }

    /// The item's extents as checked ranges of the file (or of `idat`), with "to the end"
    /// lengths resolved, and their total (saturating at `Int.max`).
    /// Throws when any item's data reaches past the end of the file (or its `idat`): the
    /// file was cut short, and what it held there (a tile, the EXIF) is lost. libheif
    /// refuses such files as a whole, and so does the tile engine, before decoding.
    package func checkItemsInFile(size fileSize: Int) throws(HEIFError) {
        for id in locations.keys.sorted() {
            do {
                _ = try resolvedExtents(of: id, size: fileSize)
            } catch {
                if case .itemDataOutOfRange = error { throw error }
            }
        }
    }

    func resolvedExtents(of id: UInt32, size fileSize: Int) throws(HEIFError)
        -> (construction: ItemLocation.Construction, ranges: [Range<Int>], total: Int) {
        if let locationError { throw locationError }
        guard let location = locations[id] else { throw .missingLocation(item: id) }
        switch location.construction {
        case .itemOffset:
            throw .unsupportedItemData(item: id, reason: "it is built from other items' data ('iloc' construction method 2)")
        case .file where location.dataReferenceIndex != 0:
            throw .unsupportedItemData(item: id, reason: "it lies in another file ('iloc' data_reference_index \(location.dataReferenceIndex))")
        case .file, .idat:
            break
        }
        let inIdat = location.construction == .idat
        let size = inIdat ? idat.count : fileSize
        var ranges: [Range<Int>] = []
        var total = 0
        for extent in location.extents {
            let available = extent.offset <= size ? size - extent.offset : -1
            let length = extent.length == 0 ? available : extent.length
            guard available >= 0, length <= available else {
                throw .itemDataOutOfRange(item: id, offset: extent.offset, length: extent.length, size: size, inIdat: inIdat)
            }
            ranges.append(extent.offset..<(extent.offset + length))
            let (sum, overflow) = total.addingReportingOverflow(length)
            total = overflow ? Int.max : sum
        }
        return (location.construction, ranges, total)
    }
}
