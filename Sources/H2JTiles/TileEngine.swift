import H2JContainer
import H2JSupport

/// Streams a `TiledImage` to a raw-plane sink: one band of tiles at a time (a grid row,
/// or a grid column when the image is turned 90° or 270°), tiles of a band decoded
/// concurrently by a `TileCrew` of `lanes` threads, each placed upright straight into
/// the band buffer, colour re-encoded only when the source is not already JFIF; the
/// finished band is encoded while the next one decodes.
///
/// Peak memory is two bands plus the lanes' decoder contexts, whatever the image size.
package struct TileEngine {
    package let image: TiledImage
    let structure: HEIFStructure
    let source: ByteSource
    /// Threads decoding tiles of one band at once (1 in a batch that already keeps
    /// every core busy with other files).
    let lanes: Int
    /// Where the lanes take their decoders from.
    let decoders: TileDecoderPool

    package init(image: TiledImage, structure: HEIFStructure, source: ByteSource, lanes: Int, decoders: TileDecoderPool) {
        self.image = image
        self.structure = structure
        self.source = source
        self.lanes = lanes
        self.decoders = decoders
    }

    /// One band: the tiles to decode and the output row it completes.
    struct Band {
        var tiles: [(tile: TiledImage.Tile, placement: TilePlacement)]
        var end: Int
    }

    /// Bands in output row order; tiles the crop removes entirely are left out.
    func bands() -> [Band] {
        let geometry = image.geometry
        var byLine: [Int: Band] = [:]
        for tile in image.tiles {
            guard let placement = TilePlacement(geometry: geometry, column: tile.column, row: tile.row,
                                                tileWidth: image.tileWidth, tileHeight: image.tileHeight) else { continue }
            let line = geometry.rowsFollowColumns ? tile.column : tile.row
            var band = byLine[line] ?? Band(tiles: [], end: 0)
            band.tiles.append((tile, placement))
            band.end = max(band.end, placement.rect.v1)
            byLine[line] = band
        }
        return byLine.values.sorted { $0.end < $1.end }
    }

    /// Converts the whole image. Bands alternate between two buffers: while the crew
    /// decodes band k + 1 into one, this thread encodes band k from the other. Band k + 1
    /// is handed to the crew even before band k is finished when band k leaves no rows
    /// over (nothing to copy across), so the crew never waits at a band boundary.
    package func run(into sink: RawPlaneSink) throws {
        let geometry = image.geometry
        let bands = bands()
        guard !bands.isEmpty else { return }
        let buffers = (0..<2).map { _ in
            BandBuffer(width: geometry.width, height: geometry.height, components: image.monochrome ? 1 : 3,
                       bandRows: geometry.rowsFollowColumns ? image.tileWidth : image.tileHeight,
                       rowsPerCall: sink.rawRowsPerCall)
        }
        let crew = try TileCrew(lanes: lanes, decoders: decoders, tileCounts: bands.map(\.tiles.count)) { [self] band, tile, decoder in
            try place(bands[band].tiles[tile].tile, bands[band].tiles[tile].placement, decoder, buffers[band % 2])
        }
        defer { crew.stop() }
        /// Prepares the next band's buffer (after the band before it) and hands its tiles out.
        func beginNextBand() {
            let band = crew.allowedBands
            buffers[band % 2].begin(through: bands[band].end, after: band > 0 ? buffers[(band - 1) % 2] : nil)
            crew.allow()
        }
        beginNextBand()
        for band in bands.indices {
            let following = band + 1 < bands.count && crew.allowedBands == band + 1
            if following && buffers[band % 2].emitEnd == buffers[band % 2].end { beginNextBand() }
            try crew.waitForNextBand()
            if band + 1 < bands.count && crew.allowedBands == band + 1 { beginNextBand() }
            try buffers[band % 2].emit(into: sink)
        }
    }

    /// Reads, decodes and places one tile; decoding errors name the tile.
    private func place(_ tile: TiledImage.Tile, _ placement: TilePlacement, _ decoder: any TileDecoding,
                       _ buffer: BandBuffer) throws {
        let data = try structure.itemData(tile.id, from: source, maxBytes: TiledImage.maxTileBytes)
        do {
            try decode(tile, placement, data, decoder, buffer)
        } catch let error as TileDecodingError {
            throw TileEngineError(tile: tile.id, reason: error.description)
        }
    }

    /// Decodes one tile and places it: checked against the SPS promise, copied upright,
    /// colour re-encoded when the tile is not already JFIF.
    private func decode(_ tile: TiledImage.Tile, _ placement: TilePlacement, _ data: [UInt8],
                        _ decoder: any TileDecoding, _ buffer: BandBuffer) throws {
        try decoder.decode(image.configurations[tile.configuration], data: data) { picture in
            let chroma = image.monochrome ? 0 : 1
            guard picture.width == image.tileWidth, picture.height == image.tileHeight,
                  picture.chromaFormat == chroma, picture.bitDepth == 8,
                  picture.planes.count == (image.monochrome ? 1 : 3),
                  image.monochrome || picture.planes[1].stride == picture.planes[2].stride else {
                throw TileEngineError(tile: tile.id, reason: "decoded to \(picture.width)×\(picture.height), chroma format \(picture.chromaFormat), \(picture.bitDepth)-bit; its parameter sets promised \(image.tileWidth)×\(image.tileHeight), chroma format \(chroma), 8-bit")
            }
            placement.copyLuma(from: picture.planes[0].pointer, stride: picture.planes[0].stride, into: buffer)
            if !image.monochrome {
                placement.copyChroma(cb: picture.planes[1].pointer, cr: picture.planes[2].pointer,
                                     stride: picture.planes[1].stride, into: buffer)
            }
            let colour = tile.nclx ?? image.signalColours[tile.configuration]
            if let conversion = YCbCrConversion(matrix: colour.matrix, fullRange: colour.fullRange, primaries: colour.primaries) {
                placement.convert(conversion, in: buffer, chroma: !image.monochrome)
            }
        }
    }
}
