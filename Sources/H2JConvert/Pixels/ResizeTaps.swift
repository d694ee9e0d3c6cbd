#if canImport(Glibc)
import Glibc
#endif

/// The Lanczos-3 weights of a one-dimensional reduce, as Pillow computes them
/// (`precompute_coeffs`): output sample `x` is centred on input position
/// `(x + 0.5) · scale`, its window is clamped to the input and its weights sum to 1.
struct ResizeTaps {
    /// First input sample of each output sample's window.
    let starts: [Int]
    /// Window length of each output sample (at most `stride`).
    let counts: [Int]
    /// `stride` weights per output sample, zero past its count.
    let weights: [Float]
    let stride: Int

    /// `inputCount` samples to `outputCount`, each output sample `scale` input samples wide.
    init(inputCount: Int, outputCount: Int, scale: Double) {
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        stride = Int((support * 2).rounded(.up)) + 1
        var starts = [Int](repeating: 0, count: outputCount), counts = starts
        var weights = [Float](repeating: 0, count: outputCount * stride)
        for x in 0..<outputCount {
            let centre = (Double(x) + 0.5) * scale
            let first = max(Int((centre - support + 0.5).rounded(.down)), 0)
            let end = min(max(Int((centre + support + 0.5).rounded(.down)), first + 1), inputCount)
            let count = min(end - first, stride)
            var row = [Double](repeating: 0, count: count)
            for j in 0..<count { row[j] = Self.lanczos3((Double(first + j) - centre + 0.5) / filterScale) }
            let total = row.reduce(0, +)
            for j in 0..<count { weights[x * stride + j] = Float(total == 0 ? (j == 0 ? 1 : 0) : row[j] / total) }
            (starts[x], counts[x]) = (first, count)
        }
        (self.starts, self.counts, self.weights) = (starts, counts, weights)
    }

    /// sinc(x) · sinc(x / 3) on (−3, 3), 0 outside.
    static func lanczos3(_ x: Double) -> Double {
        guard x > -3, x < 3 else { return 0 }
        guard x != 0 else { return 1 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
