import Dispatch
import Synchronization

/// Streams a `TiledImage` to a raw-plane sink: one band of tiles at a time (a grid row,
/// or a grid column when the image is turned 90° or 270°), tiles of a band decoded
/// concurrently on up to `lanes` threads, each placed upright straight into the band
/// buffer, colour re-encoded only when the source is not already JFIF, and finished
/// rows handed on before the next band is decoded.
///
/// Peak memory is one band plus the lanes' decoder contexts, whatever the image size.
struct TileEngine {
    let image: TiledImage
    let structure: HEIFStructure
    let source: ByteSource
    /// Threads decoding tiles of one band at once (1 in a batch that already keeps
    /// every core busy with other files).
    let lanes: Int

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

    func run(into sink: RawPlaneSink) throws {
        let geometry = image.geometry
        let buffer = BandBuffer(width: geometry.width, height: geometry.height, components: image.monochrome ? 1 : 3,
                                bandRows: geometry.rowsFollowColumns ? image.tileWidth : image.tileHeight,
                                rowsPerCall: image.monochrome ? 8 : 16)
        for band in bands() {
            try decode(band, into: buffer)
            try buffer.flush(through: band.end, into: sink)
        }
    }

    /// Decodes and places every tile of `band`, on up to `lanes` threads; the first
    /// error stops the others and is rethrown.
    private func decode(_ band: Band, into buffer: BandBuffer) throws {
        let lanes = min(lanes, band.tiles.count)
        if lanes <= 1 {
            try HEVCDecoderPool.shared.withDecoder { decoder in
                for (tile, placement) in band.tiles { try place(tile, placement, decoder, buffer) }
            }
            return
        }
        let next = Atomic<Int>(0)
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: lanes) { _ in
            do {
                try HEVCDecoderPool.shared.withDecoder { decoder in
                    while failure.withLock({ $0 == nil }) {
                        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < band.tiles.count else { return }
                        try place(band.tiles[index].tile, band.tiles[index].placement, decoder, buffer)
                    }
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Reads, decodes and places one tile.
    private func place(_ tile: TiledImage.Tile, _ placement: TilePlacement, _ decoder: HEVCTileDecoder,
                       _ buffer: BandBuffer) throws {
        let data = try structure.itemData(tile.id, from: source, maxBytes: TiledImage.maxTileBytes)
        try decoder.decode(image.configurations[tile.configuration], data: data) { picture in
            let chroma = image.monochrome ? 0 : 1
            guard picture.width == image.tileWidth, picture.height == image.tileHeight,
                  picture.chromaFormat == chroma, picture.bitDepth == 8,
                  picture.planes.count == (image.monochrome ? 1 : 3) else {
                throw TileEngineError(tile: tile.id, reason: "decoded to \(picture.width)×\(picture.height), chroma format \(picture.chromaFormat), \(picture.bitDepth)-bit; its parameter sets promised \(image.tileWidth)×\(image.tileHeight), chroma format \(chroma), 8-bit")
            }
            placement.copyLuma(from: picture.planes[0].pointer, stride: picture.planes[0].stride, into: buffer)
            if !image.monochrome {
                placement.copyChroma(cb: picture.planes[1].pointer, cr: picture.planes[2].pointer,
                                     stride: picture.planes[1].stride, into: buffer)
            }
            let colour = tile.nclx ?? NCLX(primaries: picture.primaries, transfer: picture.transfer,
                                           matrix: picture.matrix, fullRange: picture.fullRange)
            if let conversion = YCbCrConversion(matrix: colour.matrix, fullRange: colour.fullRange, primaries: colour.primaries) {
                placement.convert(conversion, in: buffer, chroma: !image.monochrome)
            }
        }
    }
}
