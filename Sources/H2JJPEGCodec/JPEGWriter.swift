import CJPEGCodec
import H2JJPEG
import H2JSupport

/// Why libjpeg could not write a JPEG.
package struct JPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What we were doing: "start", "marker", "icc", "rows", "finish".
    package let stage: String
    /// libjpeg's message (or "out of memory").
    package let message: String
    /// The errno of a failed write to the output (a full disk), if that was the cause.
    package var errno: Int32?
    package var description: String { "JPEG encoder failed at \(stage): \(message)" }

    package init(stage: String, message: String, errno: Int32? = nil) {
        self.stage = stage
        self.message = message
        self.errno = errno
    }
}

extension ChromaSubsampling {
    var codec: cjpegcodec_subsampling {
        switch self {
        case .s420: return CJPEGCODEC_SUBSAMPLING_420
        case .s422: return CJPEGCODEC_SUBSAMPLING_422
        case .s444: return CJPEGCODEC_SUBSAMPLING_444
        }
    }
}

/// How a JPEG's scans are coded beyond quality and sampling (`cjpegcodec_coding`):
/// either option makes libjpeg hold the whole image's coefficients
/// (`JPEGCoefficientMemory`) and write the scans at `finish`.
package struct JPEGCoding: Sendable, Equatable {
    /// Progressive scans (SOF2), libjpeg's default script; its tables are always optimised.
    package var progressive = false
    /// Huffman tables optimised for the image.
    package var optimize = false

    package init(progressive: Bool = false, optimize: Bool = false) {
        (self.progressive, self.optimize) = (progressive, optimize)
    }

    /// Whether libjpeg holds every coefficient of the image.
    package var holdsCoefficients: Bool { progressive || optimize }

    var codec: cjpegcodec_coding { cjpegcodec_coding(progressive: progressive ? 1 : 0, optimize: optimize ? 1 : 0) }
}

/// Streams one JPEG to a file descriptor through `CJPEGCodec`.
///
/// Call order: `start`, any `writeMarker`/`writeICC`, `writeRows` until every row is
/// written, `finish`. For raw YCbCr or gray planes (no colour conversion), use
/// `startRaw` and `writeRaw` in place of `start` and `writeRows`. A warning from libjpeg
/// is treated as a failure: while encoding it can only mean misuse. The descriptor is
/// not closed.
package final class JPEGWriter {
    private let encoder: OpaquePointer

    /// Wraps `cjpegcodec_encoder_create`.
    package init(fd: Int32) throws(JPEGError) {
        guard let encoder = cjpegcodec_encoder_create(fd) else { throw JPEGError(stage: "create", message: "out of memory") }
        self.encoder = encoder
    }

    deinit { cjpegcodec_encoder_destroy(encoder) }

    /// The one place a CJPEGCodec return code becomes a Swift error.
    private func check(_ code: Int32, _ stage: String) throws(JPEGError) {
        guard code != Int32(CJPEGCODEC_OK) else { return }
        let message = String(cString: cjpegcodec_encoder_message(encoder))
        let writeErrno = cjpegcodec_encoder_write_errno(encoder)
        throw JPEGError(stage: stage, message: message.isEmpty ? "invalid call (code \(code))" : message,
                        errno: writeErrno == 0 ? nil : writeErrno)
    }

    /// Wraps `cjpegcodec_encoder_start`; `components` is 1 (gray) or 3 (RGB, which libjpeg
    /// downsamples to `subsampling`). Rows come from an image held whole, so their tables
    /// are optimised unless `coding` says otherwise.
    package func start(width: Int, height: Int, components: Int, quality: Int, subsampling: ChromaSubsampling,
                       coding: JPEGCoding = JPEGCoding(optimize: true)) throws(JPEGError) {
        try check(cjpegcodec_encoder_start(encoder, try Self.uint32(width, "start"), try Self.uint32(height, "start"),
                                           Int32(clamping: components), Int32(clamping: quality), subsampling.codec, coding.codec),
                  "start")
    }

    /// Wraps `cjpegcodec_encoder_start_raw`: `components` 3 is YCbCr planes at `subsampling`
    /// (JFIF), 1 is gray. Same quality handling as `start`; without a `coding` option the
    /// tables are the standard ones and the scans stream out as rows arrive (see the C
    /// header). Markers may follow, then `writeRaw`.
    package func startRaw(width: Int, height: Int, components: Int, quality: Int, subsampling: ChromaSubsampling = .s420,
                          coding: JPEGCoding = JPEGCoding()) throws(JPEGError) {
        try check(cjpegcodec_encoder_start_raw(encoder, try Self.uint32(width, "start"), try Self.uint32(height, "start"),
                                               Int32(clamping: components), Int32(clamping: quality), subsampling.codec,
                                               coding.codec), "start")
    }

    /// Luma rows `writeRaw` takes per call (the iMCU height): 16 for 4:2:0, 8 for 4:2:2,
    /// 4:4:4 and gray; 0 before `startRaw`.
    package var rawRowsPerCall: Int { Int(cjpegcodec_encoder_imcu_rows(encoder)) }

    /// Wraps `cjpegcodec_encoder_write_raw`: `rows` luma rows from the next unwritten row,
    /// plane p (Y, Cb, Cr; only Y for gray) row r at `planes[p] + r * strides[p]` (chroma
    /// rows halved for 4:2:0).
    /// `rows` is a multiple of `rawRowsPerCall` except in the call ending the image, where
    /// the missing rows repeat the last one. Each row holds the component's width rounded
    /// up to 8 samples, those past the width being edge replicas (see CJPEGCodec.h).
    package func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws(JPEGError) {
        guard (1...3).contains(planes.count), planes.count == strides.count, strides.allSatisfy({ $0 >= 0 }) else {
            throw JPEGError(stage: "rows", message: "\(planes.count) planes with strides \(strides): need 1 to 3, one non-negative stride each")
        }
        let count = try Self.uint32(rows, "rows")
        let pointers: [UnsafePointer<UInt8>?] = (0..<3).map { $0 < planes.count ? planes[$0] : nil }
        let steps: [Int] = (0..<3).map { $0 < strides.count ? strides[$0] : 0 }
        let code = pointers.withUnsafeBufferPointer { p in
            steps.withUnsafeBufferPointer { s in cjpegcodec_encoder_write_raw(encoder, p.baseAddress, s.baseAddress, count) }
        }
        try check(code, "rows")
    }

    /// A size or row count as the C API's `uint32_t`, or an error naming the stage.
    private static func uint32(_ value: Int, _ stage: String) throws(JPEGError) -> UInt32 {
        guard let result = UInt32(exactly: value) else { throw JPEGError(stage: stage, message: "\(value) is out of range") }
        return result
    }

    /// Wraps `cjpegcodec_encoder_write_marker`; `marker` is e.g. 0xE1 for APP1.
    package func writeMarker(_ marker: Int, _ payload: [UInt8]) throws(JPEGError) {
        try check(payload.withUnsafeBufferPointer { cjpegcodec_encoder_write_marker(encoder, Int32(marker), $0.baseAddress, $0.count) }, "marker")
    }

    /// Wraps `cjpegcodec_encoder_write_icc`: APP2 `ICC_PROFILE` chunks.
    package func writeICC(_ profile: [UInt8]) throws(JPEGError) {
        try check(profile.withUnsafeBufferPointer { cjpegcodec_encoder_write_icc(encoder, $0.baseAddress, $0.count) }, "icc")
    }

    /// Wraps `cjpegcodec_encoder_write_rows`: `count` rows starting at `rows`, `stride` bytes apart.
    package func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws(JPEGError) {
        try check(cjpegcodec_encoder_write_rows(encoder, rows, stride, try Self.uint32(count, "rows")), "rows")
    }

    /// Wraps `cjpegcodec_encoder_finish`.
    package func finish() throws(JPEGError) {
        try check(cjpegcodec_encoder_finish(encoder), "finish")
    }
}

extension JPEGError: CodedError {
    /// A failed write keeps its errno (a full disk); anything else is the encoder's.
    package var code: ErrorCode { errno.map { ErrorCode(errno: $0, otherwise: .writeFailed) } ?? .encodeFailed }
}
