import H2JSupport

/// Why one HEVC tile could not be decoded. `message` says what failed, with
/// the decoder's own text where it reported one, e.g.
/// "HEVC decoding failed: slice header invalid" or "the tile produced no picture".
package struct TileDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }

    package init(_ message: String) { self.message = message }
}

extension TileDecodingError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}

extension TileDecodingError {
    /// A picture part of which the decoder never wrote: its slices end before the picture does.
    package static func unwritten(at block: (x: Int, y: Int)) -> TileDecodingError {
        TileDecodingError("the slice ends before the picture does (the 8×8 block at \(block.x),\(block.y) was never decoded)")
    }
}
