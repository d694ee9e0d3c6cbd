import H2JContainer

/// An HEVC decoder for image items, one tile at a time: the seam between the tile
/// engine and a codec library (`HEVCTileDecoder` over libde265 conforms).
///
/// An instance is used by one thread at a time (`TileDecoderPool` hands it over);
/// separate instances may decode concurrently.
package protocol TileDecoding: AnyObject {
    /// Decodes one tile and calls `body` with its picture, valid only during the call.
    /// `data` is the item's bytes: NAL units, each after a big-endian length of
    /// `configuration.lengthSize` bytes. Throws `TileDecodingError` for data that does
    /// not decode to a picture, and whatever `body` throws.
    func decode<R>(_ configuration: HEVCConfiguration, data: [UInt8],
                   body: (DecodedPicture) throws -> R) throws -> R
}
