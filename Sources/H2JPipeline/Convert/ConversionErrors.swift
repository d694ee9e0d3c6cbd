// Failures of the convert and copy stages themselves (the layers below have their own).

/// The decoded size exceeds `maxPixels` (a decompression bomb, or a larger image than allowed).
struct LimitError: Error, CustomStringConvertible {
    let width: Int, height: Int, maxPixels: Int
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
