import CBrotli
import H2JSupport

/// libbrotli's decoder (RFC 7932), in memory, with a cap on the output.
package enum BrotliDecoding {
    /// Decompresses `data` to at most `maxBytes` bytes; wraps
    /// `BrotliDecoderCreateInstance`, `BrotliDecoderDecompressStream`,
    /// `BrotliDecoderDestroyInstance`. Throws when the stream is corrupt or cut short, or
    /// when it would produce more than `maxBytes` (a decompression bomb: output past the
    /// cap is never produced).
    package static func decompress(_ data: ArraySlice<UInt8>, maxBytes: Int) throws(BrotliError) -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw BrotliError(message: "no decoder (out of memory)") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output = [UInt8](repeating: 0, count: max(0, maxBytes) + 1)
        var produced = 0
        let result = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                var inputLeft = input.count
                var next = input.bindMemory(to: UInt8.self).baseAddress
                var outputLeft = out.count
                var nextOut = out.bindMemory(to: UInt8.self).baseAddress
                let result = BrotliDecoderDecompressStream(decoder, &inputLeft, &next, &outputLeft, &nextOut, nil)
                produced = out.count - outputLeft
                return result
            }
        }
        guard produced <= maxBytes else { throw BrotliError(message: "it decompresses to more than the \(maxBytes) bytes expected") }
        switch result {
        case BROTLI_DECODER_RESULT_SUCCESS:
            output.removeSubrange(produced...)
            return output
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
            throw BrotliError(message: "the stream is cut short")
        default:
            let code = BrotliDecoderGetErrorCode(decoder)
            throw BrotliError(message: "the stream is corrupt (\(String(cString: BrotliDecoderErrorString(code))))")
        }
    }
}

/// A Brotli stream that does not decompress.
package struct BrotliError: Error, CustomStringConvertible {
    let message: String
    package var description: String { "cannot decompress Brotli: \(message)" }
}

extension BrotliError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}
