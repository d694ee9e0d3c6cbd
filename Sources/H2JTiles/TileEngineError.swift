import H2JSupport

/// A tile that could not be decoded, or decoded to something other than its parameter
/// sets promised; the message names the tile item.
package struct TileEngineError: Error, Equatable, Sendable, CustomStringConvertible {
    let tile: UInt32
    let reason: String
    package var description: String { "tile \(tile): \(reason)" }
}

extension TileEngineError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}
