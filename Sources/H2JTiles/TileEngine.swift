import H2JContainer
import H2JSupport

/// Streams a `TiledImage` to a raw-plane sink: one band of tiles at a time (a grid row,
/// or a grid column when the image is turned 90° or 270°), tiles of a band decoded
/// concurrently by a `TileCrew` of `lanes` threads, each placed upright straight into
/// the band buffer, colour re-encoded only when the source is not already JFIF; the
/// finished band is encoded while the next one decodes.
///
/// Peak memory is two bands plus the lanes' decoder contexts, whatever the image size; a
/// one-tile image (a single coded item) goes in strips, beside the decoder's picture.
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

    /// The lanes at work on one run of the image: the crew, the two band buffers, and the
    /// bands; its first bands handed out when it is made. Ending it (deinit) waits for
    /// every band handed out, so no thread reads the source or writes a buffer after it.
    package final class Start {
        fileprivate let bands: [Band]
        /// Band k goes into buffer k % 2.
        fileprivate let buffers: [BandBuffer]
        fileprivate let crew: TileCrew
        /// The sink's row groups the buffers were laid out for.
        fileprivate let rowsPerCall: Int
        /// Lanes left to the caller's other work, which `run` starts.
        fileprivate let lanesLeft: Int
        /// Whether a `run` went on from it: it serves one run only.
        fileprivate var taken = false

        fileprivate init(bands: [Band], buffers: [BandBuffer], crew: TileCrew, rowsPerCall: Int, lanesLeft: Int) {
            self.bands = bands
            self.buffers = buffers
            self.crew = crew
            self.rowsPerCall = rowsPerCall
            self.lanesLeft = lanesLeft
        }

        deinit { crew.stop() }

        /// Hands out the next bands, in order, while a buffer is free (its band among the
        /// first `emitted` is emitted) and the band before leaves no rows over or is among
        /// the first `placed` completely placed (its leftover is copied across then).
        fileprivate func handOut(emitted: Int, placed: Int) {
            while crew.allowedBands < bands.count && crew.allowedBands < emitted + buffers.count {
                let band = crew.allowedBands
                let previous = band > 0 ? buffers[(band - 1) % buffers.count] : nil
                if let previous, band > placed, previous.emitEnd != previous.end { return }
                buffers[band % buffers.count].begin(through: bands[band].end, after: previous)
                crew.allow()
            }
        }
    }

    /// Sets the lanes decoding the first bands, for a sink of `rowsPerCall` row groups
    /// (`RawPlaneSink.rawRowsPerCall`), before the sink exists: `run` then goes on from
    /// there. With `ahead`, one lane is left to the caller, who meanwhile does other work
    /// on its own thread (a gain map's decode), so no core is asked for twice; `run`
    /// starts it. nil for an image of no band, or, `ahead`, whose buffers are over
    /// `aheadBufferBytes`.
    package func start(rowsPerCall: Int, ahead: Bool = false) throws -> Start? {
        let geometry = image.geometry
        let bands = bands()
        guard !bands.isEmpty, !image.isOneTile else { return nil }
        let (components, bandRows) = (image.monochrome ? 1 : 3, geometry.rowsFollowColumns ? image.tileWidth : image.tileHeight)
        let bufferBytes = 2 * BandBuffer.bytes(width: geometry.width, components: components, bandRows: bandRows, rowsPerCall: rowsPerCall)
        guard !ahead || bufferBytes <= Self.aheadBufferBytes else { return nil }
        let buffers = (0..<2).map { _ in
            BandBuffer(width: geometry.width, height: geometry.height, components: components, bandRows: bandRows, rowsPerCall: rowsPerCall)
        }
        let left = ahead && lanes > 1 ? 1 : 0
        let crew = try TileCrew(lanes: lanes - left, decoders: decoders, tileCounts: bands.map(\.tiles.count)) { [self] band, tile, decoder in
            try place(bands[band].tiles[tile].tile, bands[band].tiles[tile].placement, decoder, buffers[band % buffers.count])
        }
        let start = Start(bands: bands, buffers: buffers, crew: crew, rowsPerCall: rowsPerCall, lanesLeft: left)
        start.handOut(emitted: 0, placed: 0)
        return start
    }

    /// Converts the whole image, going on from `started` (`start`) when it was laid out
    /// for this sink's row groups and no run took it yet, else from the beginning. Bands
    /// take turns in the buffers: while the crew decodes the next bands into the others,
    /// this thread encodes band k from its own. A band is handed to the crew even before
    /// the one before it is finished when that one leaves no rows over, so the crew
    /// never waits at a band boundary.
    package func run(into sink: RawPlaneSink, started: Start? = nil) throws {
        if image.isOneTile { return try runStrips(into: sink) }
        let reused = started.flatMap { !$0.taken && $0.rowsPerCall == sink.rawRowsPerCall ? $0 : nil }
        reused?.taken = true
        if let reused { try? reused.crew.addLanes(reused.lanesLeft) }
        guard let run = try reused ?? start(rowsPerCall: sink.rawRowsPerCall) else { return }
        defer { run.crew.stop() }
        for band in run.bands.indices {
            run.handOut(emitted: band, placed: band)
            try run.crew.waitForNextBand()
            run.handOut(emitted: band, placed: band + 1)
            try run.buffers[band % run.buffers.count].emit(into: sink)
        }
    }

    /// Most bytes the two band buffers of a start `ahead` may take: they are held while
    /// the caller decodes another image (a gain map) beside them. A phone photo's bands
    /// (a 50 MP photo's are 6.3 MB each) are decoded ahead; a 200 MP photo's (12.5 MB each)
    /// wait for that decode, so that the two never add up past its memory bound.
    package static let aheadBufferBytes = 16 << 20

    /// Output rows a one-tile image hands on at once (`runStrips`), rounded down to the
    /// sink's row groups.
    package static let stripRows = 64

    /// A one-tile image (a single coded item: an iPhone's gain map) decoded on this
    /// thread and handed on in strips while the decoder holds its picture, so that the
    /// decoder's own picture is the only copy of the image: a band would be all of it.
    private func runStrips(into sink: RawPlaneSink) throws {
        guard let tile = image.tiles.first,
              let placement = TilePlacement(geometry: image.geometry, column: tile.column, row: tile.row,
                                            tileWidth: image.tileWidth, tileHeight: image.tileHeight) else { return }
        let group = max(1, sink.rawRowsPerCall)
        let rows = max(1, TileEngine.stripRows / group) * group
        let buffer = BandBuffer(width: image.geometry.width, height: image.geometry.height, components: image.monochrome ? 1 : 3,
                                bandRows: rows, rowsPerCall: group)
        try decoders.withDecoder { decoder in
            try decode(tile, decoder) { picture in
                for top in stride(from: placement.rect.v0, to: placement.rect.v1, by: rows) {
                    let end = min(placement.rect.v1, top + rows)
                    buffer.begin(at: top, through: end)
                    place(picture, of: tile, placement.rows(top, end), into: buffer)
                    try buffer.emit(into: sink)
                }
            }
        }
    }

    /// Reads, decodes and places one tile.
    private func place(_ tile: TiledImage.Tile, _ placement: TilePlacement, _ decoder: any TileDecoding,
                       _ buffer: BandBuffer) throws {
        try decode(tile, decoder) { picture in place(picture, of: tile, placement, into: buffer) }
    }

    /// Reads and decodes one tile and calls `body` with its picture, checked against the
    /// SPS promise; decoding errors name the tile.
    private func decode(_ tile: TiledImage.Tile, _ decoder: any TileDecoding, _ body: (DecodedPicture) throws -> Void) throws {
        let data = try structure.itemData(tile.id, from: source, maxBytes: TiledImage.maxTileBytes)
        func failure(_ reason: String) -> TileEngineError {
            TileEngineError(tile: tile.id, cell: tile.row * image.columns + tile.column, cells: image.columns * image.rows, reason: reason)
        }
        do {
            try decoder.decode(image.configurations[tile.configuration], data: data) { picture in
                let chroma = image.monochrome ? 0 : 1
                guard picture.width == image.tileWidth, picture.height == image.tileHeight,
                      picture.chromaFormat == chroma, picture.bitDepth == 8,
                      picture.planes.count == (image.monochrome ? 1 : 3),
                      image.monochrome || picture.planes[1].stride == picture.planes[2].stride else {
                    throw failure("decoded to \(picture.width)×\(picture.height), chroma format \(picture.chromaFormat), \(picture.bitDepth)-bit; its parameter sets promised \(image.tileWidth)×\(image.tileHeight), chroma format \(chroma), 8-bit")
                }
                try body(picture)
            }
        } catch let error as TileDecodingError {
            throw failure(error.description)
        }
    }

    /// Places a decoded tile: copied upright, colour re-encoded when the tile is not
    /// already JFIF.
    private func place(_ picture: DecodedPicture, of tile: TiledImage.Tile, _ placement: TilePlacement, into buffer: BandBuffer) {
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
