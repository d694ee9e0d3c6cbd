import CZlib
import H2JSupport

/// zlib's inflate: a raw deflate stream (RFC 1951) or a zlib stream (RFC 1950), in
/// memory, with a cap on the output.
package enum Inflate {
    package enum Framing {
        case deflate, zlib
    }

    /// Inflates `data` to at most `maxBytes` bytes; wraps `inflateInit2_`, `inflate`,
    /// `inflateEnd`. Throws when the stream is corrupt or cut short, or when it would
    /// inflate to more than `maxBytes` (a decompression bomb: output past the cap is
    /// never produced).
    package static func inflate(_ data: ArraySlice<UInt8>, framing: Framing, maxBytes: Int) throws(InflateError) -> [UInt8] {
        // One `inflate` call: zlib counts in 32 bits.
        guard data.count < Int(UInt32.max), maxBytes < Int(UInt32.max) - 1 else {
            throw InflateError(message: "\(data.count) bytes to inflate to up to \(maxBytes) are more than one call takes")
        }
        var stream = z_stream()
        let windowBits: Int32 = framing == .deflate ? -15 : 15
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InflateError(message: "zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        // One byte more than allowed, so a stream that would exceed the cap is seen to.
        var output = [UInt8](repeating: 0, count: max(0, maxBytes) + 1)
        let status: Int32 = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        let produced = Int(stream.total_out)
        guard produced <= maxBytes else { throw InflateError(message: "it inflates to more than the \(maxBytes) bytes expected") }
        guard status == Z_STREAM_END else {
            let reason = status == Z_BUF_ERROR ? "the stream is cut short" : "the stream is corrupt (zlib error \(status))"
            throw InflateError(message: reason)
        }
        output.removeSubrange(produced...)
        return output
    }
}

/// A deflate or zlib stream that does not inflate.
package struct InflateError: Error, CustomStringConvertible {
    let message: String
    package var description: String { "cannot inflate: \(message)" }
}

extension InflateError: CodedError {
    package var code: ErrorCode { .decodeFailed }
}
