import H2JTiles

/// The tile engine's raw planes (JFIF YCbCr: BT.601 matrix, full range, 4:2:0, in groups
/// of 16 rows) made interleaved RGB rows, as a JPEG decoder makes them: chroma upsampled
/// by libjpeg's "fancy" filter (`h2v2_fancy_upsample`: a triangle, each output sample
/// ¾ of the nearer chroma sample and ¼ of the farther, in both directions, edges
/// replicated, the same rounding), then the matrix (`YCbCrConversion.toRGB`). The filter
/// reads the chroma row below a group, so one group is held back until the next arrives
/// (or the image ends): at most two groups are held.
final class JFIFPlanesToRGB {
    /// Luma rows per group: a 4:2:0 JPEG's row group.
    static let rowsPerGroup = 16

    let width: Int
    let height: Int
    private let chromaWidth: Int
    /// The held group: its luma rows, its chroma rows, and the chroma row above it.
    private var luma: [UInt8] = []
    private var cb: [UInt8] = []
    private var cr: [UInt8] = []
    private var heldRows = 0
    private var above: (cb: [UInt8], cr: [UInt8])?
    private var received = 0
    /// 16.16 terms of Y, Cb and Cr (rounding included) for R, G, B: entry `256 × channel + sample`.
    private let terms: (luma: [Int], cb: [Int], cr: [Int])

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        chromaWidth = (width + 1) / 2
        let weights = YCbCrConversion.toRGB(matrix: 6, primaries: 1)
        let one = Double(1 << 16)
        terms = (weights.flatMap { w in (0..<256).map { Int(((w[0] * Double($0) + w[3]) * one).rounded()) + (1 << 15) } },
                 weights.flatMap { w in (0..<256).map { Int((w[1] * Double($0 - 128) * one).rounded()) } },
                 weights.flatMap { w in (0..<256).map { Int((w[2] * Double($0 - 128) * one).rounded()) } })
    }

    /// Takes the next group (`rows` luma rows, `(rows + 1) / 2` chroma rows) and calls
    /// `emit` with the RGB rows now complete (mutable, `width` × 3 bytes a row), and their count.
    func take(_ planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int,
              emit: (UnsafeMutablePointer<UInt8>, Int) throws -> Void) throws {
        let chromaRows = (rows + 1) / 2
        if heldRows > 0 {
            let below = (cb: Array(UnsafeBufferPointer(start: planes[1], count: chromaWidth)),
                         cr: Array(UnsafeBufferPointer(start: planes[2], count: chromaWidth)))
            try flush(below: below, emit: emit)
        }
        luma = copy(planes[0], stride: strides[0], rows: rows, width: width)
        cb = copy(planes[1], stride: strides[1], rows: chromaRows, width: chromaWidth)
        cr = copy(planes[2], stride: strides[2], rows: chromaRows, width: chromaWidth)
        heldRows = rows
        received += rows
        if received >= height { try flush(below: nil, emit: emit) }
    }

    private func copy(_ plane: UnsafePointer<UInt8>, stride: Int, rows: Int, width: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rows * width) { buffer, initialized in
            for row in 0..<rows { (buffer.baseAddress! + row * width).update(from: plane + row * stride, count: width) }
            initialized = rows * width
        }
    }

    /// Emits the held group, its chroma filtered with the row above it and `below`.
    private func flush(below: (cb: [UInt8], cr: [UInt8])?, emit: (UnsafeMutablePointer<UInt8>, Int) throws -> Void) throws {
        let chromaRows = (heldRows + 1) / 2, upsampledWidth = 2 * chromaWidth
        var rgb = [UInt8](repeating: 0, count: heldRows * width * 3)
        var upCb = [Int](repeating: 0, count: upsampledWidth), upCr = upCb
        let lastRow = (cb: Array(cb[(chromaRows - 1) * chromaWidth..<chromaRows * chromaWidth]),
                       cr: Array(cr[(chromaRows - 1) * chromaWidth..<chromaRows * chromaWidth]))
        for row in 0..<heldRows {
            let chromaRow = row / 2
            // The farther chroma row: above for the upper output row, below for the lower one; replicated at the edges.
            let farRow = row % 2 == 0 ? chromaRow - 1 : chromaRow + 1
            upsample(cb, chromaRow, farRow, outside: farRow < 0 ? above?.cb : below?.cb, chromaRows, into: &upCb)
            upsample(cr, chromaRow, farRow, outside: farRow < 0 ? above?.cr : below?.cr, chromaRows, into: &upCr)
            let lumaRow = row * width, out = row * width * 3
            luma.withUnsafeBufferPointer { luma in
                rgb.withUnsafeMutableBufferPointer { rgb in
                    terms.luma.withUnsafeBufferPointer { yTerm in
                        terms.cb.withUnsafeBufferPointer { bTerm in
                            terms.cr.withUnsafeBufferPointer { rTerm in
                                for x in 0..<width {
                                    let y = Int(luma[lumaRow + x]), b = upCb[x], r = upCr[x]
                                    for channel in 0..<3 {
                                        let value = (yTerm[channel << 8 | y] + bTerm[channel << 8 | b] + rTerm[channel << 8 | r]) >> 16
                                        rgb[out + 3 * x + channel] = UInt8(clamping: value)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        above = lastRow
        let rows = heldRows
        heldRows = 0
        try rgb.withUnsafeMutableBufferPointer { try emit($0.baseAddress!, rows) }
    }

    /// One chroma row upsampled to twice its width: ¾ row `near` + ¼ row `far` (or
    /// `outside` when `far` lies beyond the held rows, `near` itself when there is none),
    /// then ¾ / ¼ across, as libjpeg's `h2v2_fancy_upsample`.
    private func upsample(_ plane: [UInt8], _ near: Int, _ far: Int, outside: [UInt8]?, _ rows: Int, into out: inout [Int]) {
        let n = chromaWidth, nearAt = near * n
        let farSamples: ArraySlice<UInt8>
        if far >= 0 && far < rows { farSamples = plane[far * n..<(far + 1) * n] }
        else if let outside { farSamples = outside[0..<n] }
        else { farSamples = plane[nearAt..<nearAt + n] }
        let farStart = farSamples.startIndex
        func sum(_ x: Int) -> Int { 3 * Int(plane[nearAt + x]) + Int(farSamples[farStart + x]) }
        var last = sum(0), this = last
        for x in 0..<n {
            let next = x + 1 < n ? sum(x + 1) : this
            out[2 * x] = (3 * this + last + 8) >> 4
            out[2 * x + 1] = (3 * this + next + 7) >> 4
            last = this
            this = next
        }
    }
}
