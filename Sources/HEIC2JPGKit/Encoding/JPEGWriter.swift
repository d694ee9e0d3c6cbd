import CJPEGCodec

/// Why libjpeg could not write a JPEG.
public struct JPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What we were doing: "start", "marker", "icc", "rows", "finish".
    public let stage: String
    /// libjpeg's message (or "out of memory").
    public let message: String
    public var description: String { "JPEG encoder failed at \(stage): \(message)" }
}

/// Chroma subsampling of colour JPEGs.
public enum ChromaSubsampling: String, Sendable, CaseIterable {
    case s420 = "420", s422 = "422", s444 = "444"

    var codec: cjpegcodec_subsampling {
        switch self {
        case .s420: return CJPEGCODEC_SUBSAMPLING_420
        case .s422: return CJPEGCODEC_SUBSAMPLING_422
        case .s444: return CJPEGCODEC_SUBSAMPLING_444
        }
    }
}

/// Streams one baseline JPEG to a file descriptor through `CJPEGCodec`.
///
/// Call order: `start`, any `writeMarker`/`writeICC`, `writeRows` until every row is
/// written, `finish`. A warning from libjpeg is treated as a failure: while encoding it
/// can only mean misuse. The descriptor is not closed.
public final class JPEGWriter {
    private let encoder: OpaquePointer

    /// Wraps `cjpegcodec_encoder_create`.
    public init(fd: Int32) throws(JPEGError) {
        guard let encoder = cjpegcodec_encoder_create(fd) else { throw JPEGError(stage: "create", message: "out of memory") }
        self.encoder = encoder
    }

    deinit { cjpegcodec_encoder_destroy(encoder) }

    /// The one place a CJPEGCodec return code becomes a Swift error.
    private func check(_ code: Int32, _ stage: String) throws(JPEGError) {
        guard code != Int32(CJPEGCODEC_OK) else { return }
        let message = String(cString: cjpegcodec_encoder_message(encoder))
        throw JPEGError(stage: stage, message: message.isEmpty ? "invalid call (code \(code))" : message)
    }

    /// Wraps `cjpegcodec_encoder_start`; `components` is 1 (gray) or 3 (RGB).
    public func start(width: Int, height: Int, components: Int, quality: Int, subsampling: ChromaSubsampling) throws(JPEGError) {
        try check(cjpegcodec_encoder_start(encoder, UInt32(width), UInt32(height), Int32(components),
                                           Int32(quality), subsampling.codec), "start")
    }

    /// Wraps `cjpegcodec_encoder_write_marker`; `marker` is e.g. 0xE1 for APP1.
    public func writeMarker(_ marker: Int, _ payload: [UInt8]) throws(JPEGError) {
        try check(payload.withUnsafeBufferPointer { cjpegcodec_encoder_write_marker(encoder, Int32(marker), $0.baseAddress, $0.count) }, "marker")
    }

    /// Wraps `cjpegcodec_encoder_write_icc`: APP2 `ICC_PROFILE` chunks.
    public func writeICC(_ profile: [UInt8]) throws(JPEGError) {
        try check(profile.withUnsafeBufferPointer { cjpegcodec_encoder_write_icc(encoder, $0.baseAddress, $0.count) }, "icc")
    }

    /// Wraps `cjpegcodec_encoder_write_rows`: `count` rows starting at `rows`, `stride` bytes apart.
    public func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws(JPEGError) {
        try check(cjpegcodec_encoder_write_rows(encoder, rows, stride, UInt32(count)), "rows")
    }

    /// Wraps `cjpegcodec_encoder_finish`.
    public func finish() throws(JPEGError) {
        try check(cjpegcodec_encoder_finish(encoder), "finish")
    }
}
