import CJPEGCodec
import H2JSupport

/// A whole JPEG decoded by `cjpegcodec_decode` to interleaved RGB (or gray), for
/// comparing pixels (`compare`'s Y-PSNR). Holds width × height × components bytes.
///
/// Invariant: `pixels` holds exactly `width * height * components` bytes, freed on deinit.
/// A libjpeg warning (corrupt or truncated data) is a failure, as in `JPEGCheck`.
package final class DecodedJPEG {
    package let width: Int
    package let height: Int
    /// 1 for grayscale, 3 for RGB.
    package let components: Int
    private let pixels: UnsafeMutablePointer<UInt8>

    package init(_ bytes: [UInt8]) throws(JPEGDecodeError) {
        var info = cjpegcodec_decode_info()
        var buffer: UnsafeMutablePointer<UInt8>?
        let code = bytes.withUnsafeBufferPointer { cjpegcodec_decode($0.baseAddress, $0.count, &buffer, &info) }
        let message = withUnsafeBytes(of: info.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard code == Int32(CJPEGCODEC_OK), let buffer else {
            cjpegcodec_free(buffer)
            throw JPEGDecodeError(message: message.isEmpty ? "cannot decode (code \(code))" : message)
        }
        pixels = buffer
        width = Int(info.width)
        height = Int(info.height)
        components = Int(info.components)
    }

    deinit { cjpegcodec_free(pixels) }

    /// Row `y` (0 ≤ y < height): `width * components` bytes.
    package func row(_ y: Int) -> UnsafePointer<UInt8> {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        return UnsafePointer(pixels + y * width * components)
    }
}

/// libjpeg could not decode a JPEG cleanly.
package struct JPEGDecodeError: Error, CustomStringConvertible {
    let message: String
    package var description: String { "JPEG does not decode: \(message)" }
}

extension JPEGDecodeError: CodedError {
    package var code: ErrorCode { .corruptJPEG }
}
