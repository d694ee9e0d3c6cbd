import H2JContainer
import H2JSupport

/// An uncompressed (`unci`) image item, ISO/IEC 23001-17, decoded by heic2jpg itself:
/// its `uncC`/`cmpd` layout, its optional `cmpC`/`icef` generic compression, and the
/// decode of its data to an 8-bit gray or RGB raster, alpha flattened onto a background.
///
/// Memory: the raster (3 bytes a pixel, 1 for gray), an alpha or chroma plane, and the
/// item's data (decompressed whole unless compressed tile by tile). The decompressed
/// size is bounded by the layout before a byte is inflated.
package struct UncompressedImage: Sendable {
    package let format: UncompressedFormat
    package let compression: GenericCompression?
    /// `ispe`: the image before its transforms.
    package let width: Int
    package let height: Int

    /// Reads the item's `uncC`, `cmpd`, `cmpC`, `icef` and `ispe`; nothing is decoded.
    package init(_ structure: HEIFStructure, item id: UInt32) throws(UncompressedError) {
        func payload(_ type: String) -> [UInt8]? { structure.properties(of: id, type: type).first?.payload }
        guard let uncC = payload("uncC") else { throw .malformed("item \(id) has no 'uncC' box") }
        guard let size = structure.imageSize(of: id) else { throw .malformed("item \(id) has no 'ispe' box") }
        try self.init(format: try UncompressedFormat(uncC: uncC, cmpd: payload("cmpd")),
                      compression: try payload("cmpC").map { (cmpC) throws(UncompressedError) in
                          try GenericCompression(cmpC: cmpC, icef: payload("icef"))
                      },
                      width: size.width, height: size.height)
    }

    /// An image of `format` and `width` × `height`, checked to split into its tiles (the
    /// rows are laid out by `decode`, after the caller checked the size).
    package init(format: UncompressedFormat, compression: GenericCompression?, width: Int, height: Int) throws(UncompressedError) {
        self.format = format
        self.compression = compression
        self.width = width
        self.height = height
        _ = try UncompressedLayout.tileSize(format: format, width: width, height: height)
    }

    /// 1 for gray, 3 for RGB.
    package var components: Int { format.model == .gray ? 1 : 3 }

    /// Decodes `data` (the item's bytes) to a raster of `width` × `height`. YCbCr becomes
    /// RGB by `nclx`'s matrix and range (BT.601 full range without one), chroma taken
    /// from the sample that covers each pixel; samples of other depths are scaled to
    /// 8 bits, rounded; alpha is composited over `background`.
    package func decode(_ data: [UInt8], decompress: Decompressor, nclx: NCLX?, background: RGBColor) throws -> Raster {
        let layout = try UncompressedLayout(format: format, width: width, height: height)
        guard let raster = Raster(width: width, height: height, components: components) else {
            throw UncompressedError.malformed("no memory for \(width)×\(height) pixels")
        }
        let planes = try UncompressedPlanes(format: format, raster: raster)
        let tiles = layout.tileCount
        let total = try UncompressedLayout.product(layout.tileBytes, tiles)
        var stream: [UInt8] = []
        var unitPerTile: [Range<Int>]?
        switch (compression, compression?.units) {
        case (nil, _):
            stream = data
        case (let compression?, let units?) where compression.unitType == .tile:
            guard units.count == tiles else { throw UncompressedError.malformed("'icef' lists \(units.count) units for \(tiles) tiles") }
            unitPerTile = units
        case (let compression?, let units?):
            for unit in units {
                stream += try decompress(compression.method, try Self.slice(data, unit), total - stream.count)
            }
        case (let compression?, nil):
            stream = try decompress(compression.method, data[...], total)
        }
        if unitPerTile == nil, stream.count < total {
            throw UncompressedError.malformed("its data holds \(stream.count) bytes where its layout needs \(total)")
        }
        var values: [UInt32] = []
        for tile in 0..<tiles {
            let column = tile % format.tileColumns, row = tile / format.tileColumns
            var tileData: ArraySlice<UInt8>
            if let unit = unitPerTile?[tile], let method = compression?.method {
                let inflated = try decompress(method, try Self.slice(data, unit), layout.tileBytes)
                guard inflated.count >= layout.tileBytes else {
                    throw UncompressedError.malformed("tile \(tile) holds \(inflated.count) bytes where its layout needs \(layout.tileBytes)")
                }
                tileData = inflated[...]
            } else {
                tileData = format.interleave == .tileComponent ? stream[...]
                    : stream[(tile * layout.tileBytes)..<((tile + 1) * layout.tileBytes)]
            }
            var partStart = tileData.startIndex
            var base = 0
            for part in layout.parts {
                let bytes: ArraySlice<UInt8>
                if format.interleave == .tileComponent && unitPerTile == nil {
                    // Each component's tiles follow each other, then the next component's.
                    let start = base + tile * part.bytes
                    bytes = stream[start..<(start + part.bytes)]
                    base += part.bytes * tiles
                } else {
                    let length = format.interleave == .tileComponent ? part.bytes : part.rowBytes * part.rows
                    bytes = tileData[partStart..<(partStart + length)]
                    partStart += length
                }
                var reader = SampleReader(bytes, format: format)
                for y in 0..<part.rows {
                    try UncompressedLayout.walkRow(part, format: format, reader: &reader, values: &values) { component, x, value in
                        planes.store(component, tileColumn: column, tileRow: row, layout: layout, x: x, y: y, value: value)
                    }
                }
            }
        }
        planes.finish(nclx: nclx, background: background)
        return raster
    }

    /// `range` of `data`, checked.
    private static func slice(_ data: [UInt8], _ range: Range<Int>) throws(UncompressedError) -> ArraySlice<UInt8> {
        guard range.lowerBound >= 0, range.upperBound <= data.count else {
            throw .malformed("a compressed unit (bytes \(range.lowerBound)..<\(range.upperBound)) lies outside the item's \(data.count) bytes")
        }
        return data[range]
    }
}
