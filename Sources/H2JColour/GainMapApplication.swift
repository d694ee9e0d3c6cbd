#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JSupport

/// An ISO 21496-1 gain map applied to an HDR base image (PQ or HLG) for the rendition
/// of a display with no headroom, SDR, one row at a time: the file's own SDR rendition,
/// where `HDRToneMapping` would make one up.
///
/// Per pixel and channel c, as ISO 21496-1 and libavif apply it: base codes → linear
/// light, 1 = 203 cd/m² (HLG through its OOTF) → the primaries the gain applies in →
/// `(base + baseOffset_c) · 2^(G_c · w) − alternateOffset_c`, G_c = min_c + (max_c −
/// min_c) · (g_c/255)^(1/gamma_c), g the gain map sampled bilinearly at the pixel's
/// centre (scaled to the image), w the weight of headroom 0 between the base's and the
/// alternate's headroom, negative when the base is the HDR one (−1 for any valid HDR
/// base) → the sRGB transfer, 8 bits, in those primaries.
///
/// Invariant: `map` never traps, whatever the metadata's values (an infinite gain is
/// clamped, a NaN is black).
package struct GainMapApplication {
    /// H.273 codes of the primaries the pixels are written in (the gain's).
    package let primaries: Int
    private let transfer: HDRTransfer
    private let top: Int
    private let linear: [Float]
    private let matrix: [Float]?
    private let sceneLuminance: (Float, Float, Float)
    /// Per channel: the factor 2^(G·w) at each sixteenth of a code, 0…255.
    private let factors: [[Float]]
    private let baseOffsets: [Float], alternateOffsets: [Float]
    private let gainMap: Raster
    /// Each output column's and row's two gain-map samples and the second's weight.
    private let columns: [(Int, Int, Float)], rows: [(Int, Int, Float)]
    private let encode: [UInt8]

    /// nil when the transfer is not HDR, the bit depth is outside 8…16, a set of primaries
    /// is unknown, or a gain-map channel count is not 1 or 3.
    package init?(nclx: NCLX, bitDepth: Int, metadata: GainMapMetadata, primaries target: Int, gainMap: Raster,
                  imageWidth: Int, imageHeight: Int) {
        guard let transfer = HDRTransfer(nclxTransfer: nclx.transfer), (8...16).contains(bitDepth),
              [1, 3].contains(metadata.channels.count), [1, 3].contains(gainMap.components), imageWidth > 0, imageHeight > 0
        else { return nil }
        let sourceCode = nclx.primaries == 2 ? 9 : nclx.primaries
        let targetCode = target == 2 ? sourceCode : target
        guard let source = ColourPrimaries(code: sourceCode), let (kr, kb) = source.lumaWeights else { return nil }
        if sourceCode != targetCode {
            guard let to = ColourPrimaries(code: targetCode), let conversion = PrimariesConversion(from: source, to: to) else { return nil }
            matrix = conversion.matrix.map(Float.init)
        } else {
            matrix = nil
        }
        self.transfer = transfer
        primaries = targetCode
        top = (1 << bitDepth) - 1
        linear = transfer.linearTable(bitDepth: bitDepth)
        sceneLuminance = (Float(kr), Float(1 - kr - kb), Float(kb))
        let (base, alternate) = (metadata.baseHDRHeadroom.value ?? 0, metadata.alternateHDRHeadroom.value ?? 0)
        let w = base == alternate ? 0 : min(max((0 - base) / (alternate - base), 0), 1)
        let signed = alternate < base ? -w : w
        factors = metadata.channels.map { channel in
            let (low, high, gamma) = (channel.min.value ?? 0, channel.max.value ?? 0, channel.gamma.value ?? 1)
            return (0...4080).map { step in
                let recovered = Math.pow(Double(step) / 4080, 1 / gamma)
                return Float(Math.exp2((low + (high - low) * recovered) * signed))
            }
        }
        baseOffsets = metadata.channels.map { Float($0.baseOffset.value ?? 0) }
        alternateOffsets = metadata.channels.map { Float($0.alternateOffset.value ?? 0) }
        self.gainMap = gainMap
        func samples(_ count: Int, _ mapCount: Int) -> [(Int, Int, Float)] {
            (0..<count).map { i in
                let at = min(max((Double(i) + 0.5) * Double(mapCount) / Double(count) - 0.5, 0), Double(mapCount - 1))
                let first = Int(at)
                return (first, min(first + 1, mapCount - 1), Float(at - Double(first)))
            }
        }
        columns = samples(imageWidth, gainMap.width)
        rows = samples(imageHeight, gainMap.height)
        encode = HDRToneMapping.sRGBEncodingTable()
    }

    /// Maps image row `y` (`columns.count` pixels of `channels` codes, 3 or 4; the 4th,
    /// alpha, is skipped) to 8-bit RGB in `out`.
    package func map(_ row: UnsafePointer<UInt16>, y: Int, channels: Int, into out: UnsafeMutablePointer<UInt8>) {
        let (y0, y1, fy) = rows[min(max(y, 0), rows.count - 1)]
        let components = gainMap.components
        let above = gainMap.row(y0), below = gainMap.row(y1)
        let hlg = transfer == .hlg
        let (s0, s1, s2) = sceneLuminance
        let ootfScale = Float(1 / HDRTransfer.referenceWhite)
        var light: (Float, Float, Float) = (0, 0, 0)
        for x in 0..<columns.count {
            let p = row + x * channels
            var r = linear[min(Int(p[0]), top)], g = linear[min(Int(p[1]), top)], b = linear[min(Int(p[2]), top)]
            if hlg {
                let factor = Float(HDRTransfer.hlgOOTFFactor(sceneLuminance: Double(s0 * r + s1 * g + s2 * b))) * ootfScale
                r *= factor; g *= factor; b *= factor
            }
            if let m = matrix {
                light = (m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b)
            } else {
                light = (r, g, b)
            }
            let (x0, x1, fx) = columns[x]
            for c in 0..<3 {
                let k = min(c, components - 1)
                let upper = Float(above[x0 * components + k]) * (1 - fx) + Float(above[x1 * components + k]) * fx
                let lower = Float(below[x0 * components + k]) * (1 - fx) + Float(below[x1 * components + k]) * fx
                let code = upper * (1 - fy) + lower * fy
                let m = min(c, factors.count - 1)
                let value = c == 0 ? light.0 : c == 1 ? light.1 : light.2
                let mapped = (value + baseOffsets[m]) * factors[m][Int(code * 16 + 0.5)] - alternateOffsets[m]
                // A file's extreme values can make it infinite (clamped) or NaN (black).
                out[3 * x + c] = encode[mapped.isNaN ? 0 : Int(min(max(mapped, 0), 1) * 65535 + 0.5)]
            }
        }
    }
}
