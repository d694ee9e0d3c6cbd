import CJPEGCodec

/// Decodes a JPEG fully (pixels discarded) to learn its size and whether it is intact.
/// libjpeg warnings count as corruption: a JPEG truncated mid-scan decodes with
/// warnings but no error.
package struct JPEGCheck: Sendable {
    package let width: Int?
    package let height: Int?
    /// nil when the JPEG decoded without error or warning; otherwise libjpeg's message.
    package let problem: String?

    /// Wraps `cjpegcodec_decode` with no pixel buffer.
    package init(_ bytes: [UInt8]) {
        var info = cjpegcodec_decode_info()
        let code = bytes.withUnsafeBufferPointer { cjpegcodec_decode($0.baseAddress, $0.count, nil, &info) }
        let message = withUnsafeBytes(of: info.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch code {
        case Int32(CJPEGCODEC_OK):
            (width, height, problem) = (Int(info.width), Int(info.height), nil)
        case Int32(CJPEGCODEC_WARNING):
            (width, height, problem) = (Int(info.width), Int(info.height), "\(message) (\(info.warnings) warning(s))")
        default:
            (width, height, problem) = (nil, nil, message.isEmpty ? "cannot decode" : message)
        }
    }
}
