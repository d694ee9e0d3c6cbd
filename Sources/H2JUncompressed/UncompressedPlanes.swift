import H2JContainer
import H2JSupport

/// Where decoded samples go, already 8-bit: gray, luma or R/G/B straight into the
/// raster, Cb and Cr into their (subsampled) planes, alpha into its own plane; `finish`
/// turns YCbCr into RGB and composites alpha.
///
/// Invariant: `store` writes only inside its plane: coordinates outside it (which a
/// consistent layout never produces) are dropped, never written.
final class UncompressedPlanes {
    private enum Target { case raster(Int), cb, cr, alpha, none }

    private let format: UncompressedFormat
    private let raster: Raster
    private let targets: [Target]
    /// Per component, its samples scaled to 8 bits: `v · 255 / (2^depth − 1)`, rounded.
    private let scales: [[UInt8]]
    private let chromaWidth: Int, chromaHeight: Int
    private var cb: [UInt8], cr: [UInt8], alpha: [UInt8]

    init(format: UncompressedFormat, raster: Raster) throws(UncompressedError) {
        self.format = format
        self.raster = raster
        let (h, v) = format.sampling.factors
        chromaWidth = raster.width / h
        chromaHeight = raster.height / v
        targets = format.components.map { component -> Target in
            switch (format.model, component.role) {
            case (.gray, .gray), (.gray, .luma), (.ycbcr, .luma), (.rgb, .red): .raster(0)
            case (.rgb, .green): .raster(1)
            case (.rgb, .blue): .raster(2)
            case (.ycbcr, .cb): .cb
            case (.ycbcr, .cr): .cr
            case (_, .alpha): .alpha
            default: .none
            }
        }
        scales = format.components.map { component in
            let maximum = (1 << component.bitDepth) - 1
            return (0...maximum).map { UInt8(($0 * 255 + maximum / 2) / maximum) }
        }
        let chroma = format.model == .ycbcr ? chromaWidth * chromaHeight : 0
        cb = [UInt8](repeating: 128, count: chroma)
        cr = [UInt8](repeating: 128, count: chroma)
        alpha = format.hasAlpha ? [UInt8](repeating: 255, count: raster.width * raster.height) : []
    }

    /// Sample `value` of `component` at (`x`, `y`) of its plane within tile (`tileColumn`, `tileRow`).
    func store(_ component: Int, tileColumn: Int, tileRow: Int, layout: UncompressedLayout, x: Int, y: Int, value: UInt32) {
        let scale = scales[component]
        let sample = Int(value) < scale.count ? scale[Int(value)] : 255
        switch targets[component] {
        case .raster(let channel):
            let px = tileColumn * layout.tileWidth + x, py = tileRow * layout.tileHeight + y
            guard px < raster.width, py < raster.height else { return }
            raster.pixels[(py * raster.width + px) * raster.components + channel] = sample
        case .cb, .cr:
            let (h, v) = format.sampling.factors
            let px = tileColumn * layout.tileWidth / h + x, py = tileRow * layout.tileHeight / v + y
            guard px < chromaWidth, py < chromaHeight else { return }
            if case .cb = targets[component] { cb[py * chromaWidth + px] = sample } else { cr[py * chromaWidth + px] = sample }
        case .alpha:
            let px = tileColumn * layout.tileWidth + x, py = tileRow * layout.tileHeight + y
            guard px < raster.width, py < raster.height else { return }
            alpha[py * raster.width + px] = sample
        case .none:
            break
        }
    }

    /// YCbCr → RGB (`nclx` matrix and range; BT.601 full range without one), then alpha
    /// composited over `background`.
    func finish(nclx: NCLX?, background: RGBColor) {
        let width = raster.width, pixels = raster.pixels
        if format.model == .ycbcr {
            let (h, v) = format.sampling.factors
            let convert = YCbCrToRGB(nclx: nclx)
            for y in 0..<raster.height {
                for x in 0..<width {
                    let index = (y * width + x) * 3, chroma = (y / v) * chromaWidth + x / h
                    (pixels[index], pixels[index + 1], pixels[index + 2]) = convert(pixels[index], cb[chroma], cr[chroma])
                }
            }
        }
        guard !alpha.isEmpty else { return }
        let backgrounds = raster.components == 1 ? [background.luma] : [background.red, background.green, background.blue]
        for index in 0..<(width * raster.height) {
            let a = Int(alpha[index])
            for channel in 0..<raster.components {
                let at = index * raster.components + channel
                pixels[at] = RGBColor.composite(pixels[at], alpha: a, over: backgrounds[channel])
            }
        }
    }
}

/// One YCbCr sample to RGB, in 16.16 fixed point: Kr and Kb of the nclx matrix
/// (`NCLX.lumaWeights`, as libheif reads them), matrix 0 as GBR, limited range
/// expanded (16–235 luma, 16–240 chroma).
struct YCbCrToRGB {
    private let identity: Bool
    private let lumaScale: Int, lumaOffset: Int, chromaScale: Int
    private let rCr: Int, gCb: Int, gCr: Int, bCb: Int

    init(nclx: NCLX?) {
        let matrix = nclx?.matrix ?? 6, full = nclx?.fullRange ?? true
        identity = matrix == 0
        let (kr, kb) = NCLX.lumaWeights(matrix: matrix, primaries: nclx?.primaries ?? 1)
        let kg = 1 - kr - kb, one = 65536.0
        lumaScale = Int((full ? 1 : 255.0 / 219) * one)
        lumaOffset = full ? 0 : 16
        chromaScale = Int((full ? 1 : 255.0 / 224) * one)
        rCr = Int(2 * (1 - kr) * one)
        bCb = Int(2 * (1 - kb) * one)
        gCb = Int(-kb * 2 * (1 - kb) / kg * one)
        gCr = Int(-kr * 2 * (1 - kr) / kg * one)
    }

    func callAsFunction(_ y: UInt8, _ cb: UInt8, _ cr: UInt8) -> (UInt8, UInt8, UInt8) {
        if identity { return (cr, y, cb) }
        let luma = (Int(y) - lumaOffset) * lumaScale
        let u = ((Int(cb) - 128) * chromaScale) >> 16, v = ((Int(cr) - 128) * chromaScale) >> 16
        func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, (value + 32768) >> 16))) }
        return (clamp(luma + rCr * v), clamp(luma + gCb * u + gCr * v), clamp(luma + bCb * u))
    }
}
