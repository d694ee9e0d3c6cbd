#if canImport(Glibc)
import Glibc
#endif
import H2JContainer

/// How an HDR image (PQ or HLG, `HDRTransfer`) becomes 8-bit SDR pixels, one row at a
/// time, and the light an Ultra HDR gain map is computed from.
///
/// Per pixel: codes → linear light (a table per code; HLG's OOTF per pixel, because it
/// depends on the pixel's scene luminance) in units of BT.2408 reference white → the
/// target primaries (`PrimariesConversion`, then into the gamut keeping hue and
/// luminance) → `SDRToneCurve` on the largest channel, every channel scaled by the same
/// factor so hue is kept and nothing clips → the sRGB transfer, 8 bits.
///
/// The outputs' target is Display P3 (`displayP3`), wide enough for most of what a
/// BT.2020 camera file holds, and described by the profile every output carries.
package struct HDRToneMapping: Sendable {
    package let transfer: HDRTransfer
    /// H.273 codes of the source's primaries (unspecified is read as BT.2020, which is
    /// what PQ and HLG sources mean) and of the output's.
    package let sourcePrimaries: Int
    package let targetPrimaries: Int
    /// Bits per source code (10 or 12 in practice).
    package let bitDepth: Int
    package let curve: SDRToneCurve

    private let linear: [Float]
    private let matrix: [Float]
    private let luminance: (Float, Float, Float)
    private let sceneLuminance: (Float, Float, Float)
    /// Linear light 0…1 in steps of 1/65535 → sRGB code; sRGB code → linear light.
    private let encode: [UInt8]
    private let decode: [Float]

    /// H.273's code of Display P3.
    package static let displayP3 = 12

    /// nil when the transfer is not HDR or a set of primaries is unknown.
    package init?(nclx: NCLX, bitDepth: Int, targetPrimaries: Int) {
        guard let transfer = HDRTransfer(nclxTransfer: nclx.transfer), (8...16).contains(bitDepth) else { return nil }
        let sourceCode = nclx.primaries == 2 ? 9 : nclx.primaries
        guard let source = ColourPrimaries(code: sourceCode), let target = ColourPrimaries(code: targetPrimaries),
              let conversion = PrimariesConversion(from: source, to: target), let (kr, kb) = source.lumaWeights else { return nil }
        self.transfer = transfer
        self.sourcePrimaries = sourceCode
        self.targetPrimaries = targetPrimaries
        self.bitDepth = bitDepth
        curve = SDRToneCurve(peak: transfer.peak / HDRTransfer.referenceWhite)
        linear = transfer.linearTable(bitDepth: bitDepth)
        matrix = conversion.matrix.map(Float.init)
        let y = conversion.targetLuminance.map(Float.init)
        luminance = (y[0], y[1], y[2])
        sceneLuminance = (Float(kr), Float(1 - kr - kb), Float(kb))
        encode = Self.sRGBEncodingTable()
        decode = (0...255).map { code in
            let signal = Double(code) / 255
            return Float(signal <= 0.04045 ? signal / 12.92 : pow((signal + 0.055) / 1.055, 2.4))
        }
    }

    /// Linear light 0…1 in steps of 1/65535 → its 8-bit sRGB code.
    package static func sRGBEncodingTable() -> [UInt8] {
        (0...65535).map { index in
            let v = Double(index) / 65535
            let signal = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (signal * 255).rounded())))
        }
    }

    /// What ran, for the report: `PQ (SMPTE ST 2084), BT.2020 → Display P3: BT.2408
    /// reference white (203 cd/m²) at 98 % of SDR white, highlights up to 10,000 cd/m²
    /// rolled off above 96 %`.
    package var description: String {
        let white = Int((curve(1) * 100).rounded())
        return "\(transfer.name), \(ICCFromNCLX.primariesName(sourcePrimaries)) → \(ICCFromNCLX.primariesName(targetPrimaries)): "
            + "BT.2408 reference white (203 cd/m²) at \(white) % of SDR white, highlights up to "
            + "\(Int(transfer.peak)) cd/m² rolled off above \(Int(SDRToneCurve.knee * 100)) %"
    }

    /// Maps `width` pixels of interleaved codes (`channels` per pixel, 3 or 4; the 4th,
    /// alpha, is skipped) to 8-bit RGB in `out`. With `light`, also writes each pixel's
    /// HDR luminance and the luminance its SDR codes decode to (target primaries, linear,
    /// 1 = SDR white = reference white): what the gain map must bridge.
    package func map(_ row: UnsafePointer<UInt16>, channels: Int, width: Int, into out: UnsafeMutablePointer<UInt8>,
                     light: (hdr: UnsafeMutablePointer<Float>, sdr: UnsafeMutablePointer<Float>)? = nil) {
        let top = (1 << bitDepth) - 1
        let (l0, l1, l2) = luminance, (s0, s1, s2) = sceneLuminance
        let knee = Float(SDRToneCurve.knee)
        let hlg = transfer == .hlg
        let ootfScale = Float(1 / HDRTransfer.referenceWhite)
        linear.withUnsafeBufferPointer { linear in
        matrix.withUnsafeBufferPointer { m in
        encode.withUnsafeBufferPointer { encode in
        decode.withUnsafeBufferPointer { decode in
            for x in 0..<width {
                let p = row + x * channels
                var r = linear[min(Int(p[0]), top)], g = linear[min(Int(p[1]), top)], b = linear[min(Int(p[2]), top)]
                if hlg {
                    let factor = Float(HDRTransfer.hlgOOTFFactor(sceneLuminance: Double(s0 * r + s1 * g + s2 * b))) * ootfScale
                    r *= factor; g *= factor; b *= factor
                }
                var tr = m[0] * r + m[1] * g + m[2] * b
                var tg = m[3] * r + m[4] * g + m[5] * b
                var tb = m[6] * r + m[7] * g + m[8] * b
                let y = l0 * tr + l1 * tg + l2 * tb
                PrimariesConversion.intoGamut(&tr, &tg, &tb, luminance: y)
                let highest = max(tr, tg, tb)
                let scale: Float = highest > knee ? Float(curve(Double(highest))) / highest : 1
                @inline(__always) func code(_ v: Float) -> UInt8 { encode[Int(min(max(v * scale, 0), 1) * 65535 + 0.5)] }
                let cr = code(tr), cg = code(tg), cb = code(tb)
                out[3 * x] = cr
                out[3 * x + 1] = cg
                out[3 * x + 2] = cb
                if let light {
                    light.hdr[x] = max(y, 0)
                    light.sdr[x] = l0 * decode[Int(cr)] + l1 * decode[Int(cg)] + l2 * decode[Int(cb)]
                }
            }
        }}}}
    }

    /// The linear luminance (target primaries, 1 = SDR white) three SDR codes decode to.
    package func luminance(ofCodes codes: UnsafePointer<UInt8>) -> Float {
        luminance.0 * decode[Int(codes[0])] + luminance.1 * decode[Int(codes[1])] + luminance.2 * decode[Int(codes[2])]
    }
}
