import H2JSupport

// Failures of the convert and copy stages themselves (the layers below have their own).

/// The decoded size exceeds `maxPixels` (a decompression bomb, or a larger image than allowed).
struct LimitError: Error, CustomStringConvertible {
    let width: Int, height: Int, maxPixels: Int

    /// Refuses a `width`×`height` image over `maxPixels` (or with no pixels) before
    /// anything of it is decoded: the one pixel-limit check of every image and input.
    static func check(width: Int, height: Int, maxPixels: Int) throws(LimitError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= maxPixels else {
            throw LimitError(width: width, height: height, maxPixels: maxPixels)
        }
    }

    var description: String {
        guard width > 0, height > 0 else { return "image is \(width)×\(height): it has no pixels" }
        return "image is \(width)×\(height) (\(width.multipliedReportingOverflow(by: height).partialValue / 1_000_000) MP), over the \(maxPixels / 1_000_000) MP limit"
    }
}

/// JPEG content that does not decode cleanly.
struct CorruptJPEGError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "JPEG content is corrupt: \(reason)" }
}

/// An image of the file other than the primary (`--images all`, `--aux`) could not be
/// converted: said in an `image-not-converted` warning, or, when a resource ran out, the
/// source's failure. Classified as its cause.
struct OtherImageError: Error, CustomStringConvertible {
    let item: UInt32
    /// The output it was to become.
    let output: String
    let underlying: any Error
    var description: String {
        "image item \(item) (for \(Path.lastComponent(output))) is left out: \(underlying)"
    }
}

extension Warning.Code {
    /// An image other than the primary could not be converted; the message says why.
    static let imageNotConverted = Warning.Code("image-not-converted")
}

extension LimitError: CodedError {
    var code: ErrorCode { .limitExceeded }
}

extension CorruptJPEGError: CodedError {
    var code: ErrorCode { .corruptJPEG }
}

extension OtherImageError: CodedError {
    var code: ErrorCode { ErrorCode(classifying: underlying) }
}
