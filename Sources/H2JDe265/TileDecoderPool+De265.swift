import H2JTiles

extension TileDecoderPool {
    /// An empty pool whose decoders are libde265 contexts (`HEVCTileDecoder`).
    package static func libde265() -> TileDecoderPool {
        TileDecoderPool { try HEVCTileDecoder() }
    }
}
