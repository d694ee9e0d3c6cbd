import H2JSupport

extension Warning.Code {
    /// An Ultra HDR output is larger than its readers decode (`UltraHDRReaderLimit`).
    package static let ultraHDRTooLarge = Warning.Code("ultrahdr-too-large")
}

/// The largest Ultra HDR JPEG its readers take: libultrahdr and Android read at most
/// 8192 pixels a side, so a larger output's gain map may go unused there.
package enum UltraHDRReaderLimit {
    /// The longest side, in pixels, that libultrahdr and Android read.
    package static let maxSide = 8192

    /// The warning for an Ultra HDR output of `width`×`height` past `maxSide`; nil within it.
    package static func warning(width: Int, height: Int) -> Warning? {
        guard max(width, height) > maxSide else { return nil }
        return Warning(.ultraHDRTooLarge,
                       "the Ultra HDR output is \(width)×\(height): libultrahdr and Android read at most \(maxSide) pixels a side, "
                           + "so they may show it as SDR only; --max-size \(maxSide) keeps it within")
    }
}
