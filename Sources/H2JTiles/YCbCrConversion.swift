import H2JContainer

/// Re-expresses decoded YCbCr samples in JPEG's colour encoding (JFIF: BT.601 matrix,
/// full range), in place, without leaving YCbCr.
///
/// Every supported source encoding (any matrix, full or limited range) is an affine map
/// of RGB, so source → JFIF is one affine map `out = M · (Y, Cb, Cr) + o`, applied in
/// 16.16 fixed point. Where the source already is BT.601 full range (iPhones, most
/// phones) there is no map at all and the decoder's samples pass through bit-exact.
///
/// Matrices follow libheif 1.15 (`nclx.cc`), so both engines agree: 1 BT.709, 4 FCC,
/// 5/6 BT.601, 7 SMPTE 240M, 9/10 BT.2020, 12/13 derived from the colour primaries,
/// 0 identity (GBR), 8 YCgCo; any other value is read as BT.601. So does the limited
/// range expansion: libheif scales by 256/219 (luma) and 256/224 (chroma) where the
/// standards' arithmetic gives 255/219 and 255/224. The 0.4% difference is below one
/// level in mid-tones; matching it keeps a file's colours the same whichever engine
/// converts it (a 10-bit sibling of an 8-bit file goes through libheif). Limited-range
/// monochrome is expanded too, although libheif passes it through unexpanded: there
/// the standard, not libheif, decides what black is.
package struct YCbCrConversion: Equatable, Sendable {
    /// Row-major 3×3 matrix and offsets, scaled by 2^16.
    let matrix: [Int]
    let offset: [Int]

    private static let one = 1 << 16

    /// The map for a source encoding, or nil when the source is already JFIF.
    package init?(matrix coefficients: Int, fullRange: Bool, primaries: Int) {
        let (kr, kb) = NCLX.lumaWeights(matrix: coefficients, primaries: primaries)
        if fullRange && coefficients != 0 && coefficients != 8 && kr == 0.299 && kb == 0.114 { return nil }
        // Source (Y, Cb, Cr) → normalised (Y', Cb', Cr') with chroma centred on 0.
        let luma = fullRange ? 1.0 : 256.0 / 219.0, chroma = fullRange ? 1.0 : 256.0 / 224.0
        let lumaOffset = fullRange ? 0.0 : -16.0 * luma
        let toRGB = Self.toRGB(matrix: coefficients, primaries: primaries)
        // RGB → JFIF YCbCr.
        let toJFIF: [[Double]] = [[0.299, 0.587, 0.114, 0],
                                  [-0.299 / 1.772, -0.587 / 1.772, 0.886 / 1.772, 128],
                                  [0.701 / 1.402, -0.587 / 1.402, -0.114 / 1.402, 128]]
        // Input scaling: in' = scale · in + shift, per component.
        let scale = [luma, chroma, chroma]
        let shift = [lumaOffset, -128 * chroma, -128 * chroma]
        var m = [Double](repeating: 0, count: 9)
        var o = [Double](repeating: 0, count: 3)
        for row in 0..<3 {
            for rgb in 0..<3 {
                let weight = toJFIF[row][rgb]
                for column in 0..<3 {
                    m[row * 3 + column] += weight * toRGB[rgb][column] * scale[column]
                }
                var constant = toRGB[rgb][3]
                for column in 0..<3 { constant += toRGB[rgb][column] * shift[column] }
                o[row] += weight * constant
            }
            o[row] += toJFIF[row][3]
        }
        let one = Double(Self.one)
        matrix = m.map { Int(($0 * one).rounded()) }
        // Half a unit for rounding, folded into the offset.
        offset = o.map { Int(($0 * one).rounded()) + Self.one / 2 }
    }

    /// Normalised (Y', Cb', Cr', chroma centred on 0) → RGB for matrix `coefficients`, as
    /// rows (R, G, B) of (Y', Cb', Cr') weights plus a constant. JFIF's is
    /// `toRGB(matrix: 6, primaries: 1)` (BT.601).
    package static func toRGB(matrix coefficients: Int, primaries: Int) -> [[Double]] {
        switch coefficients {
        case 0: // G = Y, B = Cb, R = Cr (no centring: the chroma planes hold colour values)
            return [[0, 0, 1, 128], [1, 0, 0, 0], [0, 1, 0, 128]]
        case 8: // YCgCo: R = Y − Cg + Co, G = Y + Cg, B = Y − Cg − Co
            return [[1, -1, 1, 0], [1, 1, 0, 0], [1, -1, -1, 0]]
        default:
            let (kr, kb) = NCLX.lumaWeights(matrix: coefficients, primaries: primaries)
            let kg = 1 - kr - kb
            let rCr = 2 * (1 - kr), bCb = 2 * (1 - kb)
            return [[1, 0, rCr, 0], [1, -kb * bCb / kg, -kr * rCr / kg, 0], [1, bCb, 0, 0]]
        }
    }

    @inline(__always)
    private static func clamp(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: min(255, max(0, value >> 16)))
    }

    /// Converts a `width` × `height` region of luma samples and, when `chroma` is given,
    /// the co-sited 4:2:0 chroma region (`(width + 1) / 2` × `(height + 1) / 2`).
    /// Each chroma sample is converted with the mean of the luma samples it covers; each
    /// luma sample with its own value and its block's original chroma.
    func apply(luma: UnsafeMutablePointer<UInt8>, lumaStride: Int,
               chroma: (cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, stride: Int)?,
               width: Int, height: Int) {
        let m = matrix, o = offset
        guard let chroma else {
            // Monochrome: only the luma row of the map applies, with neutral chroma.
            let base = o[0] + 128 * (m[1] + m[2])
            for y in 0..<height {
                let row = luma + y * lumaStride
                for x in 0..<width { row[x] = Self.clamp(m[0] * Int(row[x]) + base) }
            }
            return
        }
        for by in 0..<((height + 1) / 2) {
            let top = luma + 2 * by * lumaStride
            let bottom: UnsafeMutablePointer<UInt8>? = 2 * by + 1 < height ? top + lumaStride : nil
            let cbRow = chroma.cb + by * chroma.stride, crRow = chroma.cr + by * chroma.stride
            for bx in 0..<((width + 1) / 2) {
                let x0 = 2 * bx, x1: Int? = x0 + 1 < width ? x0 + 1 : nil
                let cb = Int(cbRow[bx]), cr = Int(crRow[bx])
                var sum = Int(top[x0]), count = 1
                if let x1 { sum += Int(top[x1]); count += 1 }
                if let bottom {
                    sum += Int(bottom[x0]); count += 1
                    if let x1 { sum += Int(bottom[x1]); count += 1 }
                }
                let mean = (sum * Self.one + count / 2) / count
                let chromaTerm = m[1] * cb + m[2] * cr + o[0]
                top[x0] = Self.clamp(m[0] * Int(top[x0]) + chromaTerm)
                if let x1 { top[x1] = Self.clamp(m[0] * Int(top[x1]) + chromaTerm) }
                if let bottom {
                    bottom[x0] = Self.clamp(m[0] * Int(bottom[x0]) + chromaTerm)
                    if let x1 { bottom[x1] = Self.clamp(m[0] * Int(bottom[x1]) + chromaTerm) }
                }
                cbRow[bx] = Self.clamp((m[3] * mean) >> 16 + m[4] * cb + m[5] * cr + o[1])
                crRow[bx] = Self.clamp((m[6] * mean) >> 16 + m[7] * cb + m[8] * cr + o[2])
            }
        }
    }
}
