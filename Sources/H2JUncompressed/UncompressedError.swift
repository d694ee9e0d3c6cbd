import H2JSupport

/// Why an uncompressed (`unci`, ISO/IEC 23001-17) image cannot be decoded. Each names the
/// box or the data at fault; `unsupported` ones are valid files of a kind heic2jpg does
/// not decode (floating-point samples, a palette, a Bayer pattern).
package struct UncompressedError: Error, Equatable, Sendable, CustomStringConvertible {
    package let reason: String
    /// A feature heic2jpg does not decode, not a broken file.
    package let unsupported: Bool

    package static func malformed(_ reason: String) -> Self { Self(reason: reason, unsupported: false) }
    package static func unsupported(_ reason: String) -> Self { Self(reason: reason, unsupported: true) }

    package var description: String { "uncompressed image: \(reason)" }
}

extension UncompressedError: CodedError {
    package var code: ErrorCode { unsupported ? .unsupported : .decodeFailed }
}
