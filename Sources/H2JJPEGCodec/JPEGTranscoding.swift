import CJPEGCodec

/// A JPEG's scans coded anew from its own DCT coefficients (`cjpegcodec_transcode`):
/// progressive or with optimised tables, the pixels unchanged, every APPn and COM segment
/// kept. How a JPEG item copied into the output gets `--progressive` and `--optimize`.
package enum JPEGTranscoding {
    /// The transcoded JPEG; throws when libjpeg cannot read `jpeg` cleanly or runs out of memory.
    package static func transcode(_ jpeg: [UInt8], coding: JPEGCoding) throws(JPEGError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let code = jpeg.withUnsafeBufferPointer { bytes in
            message.withUnsafeMutableBufferPointer { cjpegcodec_transcode(bytes.baseAddress, bytes.count, coding.codec, &output, &length, $0.baseAddress) }
        }
        defer { cjpegcodec_free(output) }
        guard code == Int32(CJPEGCODEC_OK), let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw JPEGError(stage: "transcode", message: text.isEmpty ? "invalid call (code \(code))" : text)
        }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
