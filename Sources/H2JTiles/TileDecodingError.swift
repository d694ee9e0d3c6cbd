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
