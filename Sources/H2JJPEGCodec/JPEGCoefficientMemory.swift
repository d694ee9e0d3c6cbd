import H2JJPEG
/// The bytes of libjpeg's whole-image coefficient buffer, which progressive scans,
/// optimised tables and lossless transcoding make it hold: per component, its blocks
/// rounded up to whole MCUs (jccoefct.c / jdcoefct.c `jround_up` by the sampling factor),
/// 64 coefficients of 2 bytes (`JCOEF`) each. About 3 bytes a pixel at 4:2:0, 6 at 4:4:4.
package enum JPEGCoefficientMemory {
    /// For a `width`×`height` image (each at most 65,535, JPEG's limit) whose components
    /// have sampling `factors` (h, v); nil for any other size, or a factor outside 1…4
    /// (no JPEG libjpeg accepts).
    package static func bytes(width: Int, height: Int, factors: [(h: Int, v: Int)]) -> Int? {
        guard (1...65_535).contains(width), (1...65_535).contains(height), !factors.isEmpty,
              factors.allSatisfy({ (1...4).contains($0.h) && (1...4).contains($0.v) }),
              let maxH = factors.map(\.h).max(), let maxV = factors.map(\.v).max() else { return nil }
        return factors.reduce(0) { total, factor in
            // ceil(ceil(W·h / maxH) / 8) = ceil(W·h / (8·maxH)), as jcmaster.c / jdinput.c.
            let columns = roundUp(divideRoundingUp(width * factor.h, 8 * maxH), factor.h)
            let rows = roundUp(divideRoundingUp(height * factor.v, 8 * maxV), factor.v)
            return total + columns * rows * 64 * 2
        }
    }

    /// For a colour (YCbCr at `subsampling`) or gray image as `JPEGWriter` writes it.
    package static func bytes(width: Int, height: Int, components: Int, subsampling: ChromaSubsampling) -> Int? {
        guard components == 3 else { return bytes(width: width, height: height, factors: [(1, 1)]) }
        let luma = subsampling.lumaFactors
        return bytes(width: width, height: height, factors: [(h: luma.x, v: luma.y), (1, 1), (1, 1)])
    }

    private static func divideRoundingUp(_ value: Int, _ divisor: Int) -> Int { (value + divisor - 1) / divisor }
    private static func roundUp(_ value: Int, _ multiple: Int) -> Int { divideRoundingUp(value, multiple) * multiple }
}
