import H2JTiles

extension TileDecoderPool {
    /// An empty pool whose decoders are libavcodec contexts (`AVCodecTileDecoder`).
    package static func libavcodec() -> TileDecoderPool {
        TileDecoderPool { try AVCodecTileDecoder() }
    }
}
