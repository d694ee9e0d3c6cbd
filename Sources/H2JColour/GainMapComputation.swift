#if canImport(Glibc)
import Glibc
#endif
import H2JContainer

/// An Ultra HDR gain map computed from an HDR image and the SDR rendition written for it
/// (`HDRToneMapping`), fed one image row at a time: one gain per 2×2 block (half the
/// image's size per axis, as Apple's gain maps), single-channel because the tone mapping
/// scales every channel of a pixel by the same factor.
///
/// Each gain is `log2((ΣH + n·o) / (ΣS + n·o))` over the block's n pixels, H the HDR
/// luminance, S the luminance the SDR *codes* decode to, so the gain map also undoes the
/// SDR's 8-bit rounding: a decoder's `(S + o)·2^G − o` gives back the HDR light, dark
/// tones included. The offset o (1/8192 of SDR white) is small for that reason, and
/// keeps a black SDR pixel's gain finite. Codes span the gains' own range, gamma 1.
package struct GainMapComputation {
    package let width: Int
    package let height: Int
    private let imageWidth: Int
    private var sums: (hdr: [Float], sdr: [Float])
    private var counts: [Float]
    private var gains: [Float] = []
    private var rowsInBlock = 0

    /// The offset added to both renditions, as a fraction of SDR white.
    package static let offset = GainMapMetadata.Fraction(1, 8192)

    package init(imageWidth: Int, imageHeight: Int) {
        self.imageWidth = imageWidth
        width = (imageWidth + 1) / 2
        height = (imageHeight + 1) / 2
        sums = ([Float](repeating: 0, count: width), [Float](repeating: 0, count: width))
        counts = [Float](repeating: 0, count: width)
        gains.reserveCapacity(width * height)
    }

    /// Adds the next image row: each pixel's HDR and SDR luminance (`imageWidth` each).
    package mutating func add(hdr: UnsafePointer<Float>, sdr: UnsafePointer<Float>) {
        for x in 0..<imageWidth {
            sums.hdr[x / 2] += hdr[x]
            sums.sdr[x / 2] += sdr[x]
            counts[x / 2] += 1
        }
        rowsInBlock += 1
        if rowsInBlock == 2 { closeBlockRow() }
    }

    private mutating func closeBlockRow() {
        let o = Float(Self.offset.value ?? 0)
        for x in 0..<width {
            gains.append(log2f((sums.hdr[x] + counts[x] * o) / (sums.sdr[x] + counts[x] * o)))
            sums.hdr[x] = 0
            sums.sdr[x] = 0
            counts[x] = 0
        }
        rowsInBlock = 0
    }

    /// The gain map's codes (`width` × `height`, row by row) and its ISO 21496-1
    /// metadata: gains from the lowest to the highest found, gamma 1, both offsets o, an
    /// SDR base (headroom 0) and an HDR rendition of the highest gain's stops.
    package mutating func finish() -> (codes: [UInt8], metadata: GainMapMetadata) {
        if rowsInBlock > 0 { closeBlockRow() }
        let low = GainMapMetadata.Fraction(approximating: Double(gains.min() ?? 0))
        let lowValue = Float(low.value ?? 0)
        let high = GainMapMetadata.Fraction(approximating: Double(max(gains.max() ?? 0, lowValue + 1.0 / 64)))
        let range = Float(high.value ?? 1) - lowValue
        let codes = gains.map { UInt8(max(0, min(255, (($0 - lowValue) / range * 255).rounded()))) }
        let headroom = GainMapMetadata.Fraction(approximating: max(high.value ?? 0, 1.0 / 64))
        let channel = GainMapMetadata.Channel(min: low, max: high, gamma: GainMapMetadata.Fraction(1, 1),
                                              baseOffset: Self.offset, alternateOffset: Self.offset)
        let metadata = GainMapMetadata(useBaseColourSpace: true, baseHDRHeadroom: GainMapMetadata.Fraction(0, 1),
                                       alternateHDRHeadroom: headroom, channels: [channel])
        return (codes, metadata)
    }
}
