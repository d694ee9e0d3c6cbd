import H2JContainer
import H2JMetadata

extension GainMapMetadata {
    /// Adobe's gain-map parameters in ISO 21496-1 terms, which they map onto directly: the
    /// base's headroom is HDRCapacityMin for an SDR base, HDRCapacityMax for an HDR one (the
    /// alternate's the other), and so are the offsets (OffsetSDR is the SDR rendition's);
    /// min, max and gamma are the same. Adobe's gain maps apply in the base's colour space.
    package init(adobe xmp: AdobeGainMapXMP) {
        let channels = (0..<xmp.channelCount).map { c in
            let (sdr, hdr) = (Fraction(approximating: xmp.value(xmp.offsetSDR, c)), Fraction(approximating: xmp.value(xmp.offsetHDR, c)))
            return Channel(min: Fraction(approximating: xmp.value(xmp.gainMapMin, c)),
                           max: Fraction(approximating: xmp.value(xmp.gainMapMax, c)),
                           gamma: Fraction(approximating: xmp.value(xmp.gamma, c)),
                           baseOffset: xmp.baseRenditionIsHDR ? hdr : sdr, alternateOffset: xmp.baseRenditionIsHDR ? sdr : hdr)
        }
        let (low, high) = (Fraction(approximating: xmp.hdrCapacityMin), Fraction(approximating: xmp.hdrCapacityMax))
        self.init(useBaseColourSpace: true, baseHDRHeadroom: xmp.baseRenditionIsHDR ? high : low,
                  alternateHDRHeadroom: xmp.baseRenditionIsHDR ? low : high, channels: channels)
    }
}
