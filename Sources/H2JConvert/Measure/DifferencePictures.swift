import H2JJob

/// One output's difference from the source, gathered row by row as `LumaPSNR` measures it
/// (the source at the output's size beside the output's own row): |ΔY| summed over each
/// heat-map pixel's area, the largest, and both crops copied at 1:1.
final class DifferencePictures {
    let heatSize: (width: Int, height: Int)
    let cropRect: PictureRect
    private let width: Int
    private let height: Int
    /// Heat-map column of each output column.
    private let column: [Int]
    /// Σ |ΔY| in thousandths, and pixels, per heat-map pixel.
    private var sums: [Int]
    private var counts: [Int]
    private(set) var total = 0
    private(set) var largest = 0
    private(set) var sourceCrop: PicturePixels
    private(set) var crop: PicturePixels

    init(width: Int, height: Int, sourceComponents: Int, components: Int, cropRect: PictureRect) {
        (self.width, self.height, self.cropRect) = (width, height, cropRect)
        let heatSize = ComparisonPictures.fitted(width: width, height: height, side: ComparisonPictures.heatSide)
        self.heatSize = heatSize
        column = (0..<width).map { $0 * heatSize.width / width }
        sums = [Int](repeating: 0, count: heatSize.width * heatSize.height)
        counts = sums
        sourceCrop = PicturePixels(width: cropRect.width, height: cropRect.height, components: sourceComponents)
        crop = PicturePixels(width: cropRect.width, height: cropRect.height, components: components)
    }

    /// Row `y` of the source (`sourceComponents` per pixel) and of the output, with each
    /// pixel's |ΔY| in thousandths as `LumaPSNR` computed it.
    func add(y: Int, reference: UnsafePointer<UInt8>, test: UnsafePointer<UInt8>, differences: UnsafePointer<Int>) {
        let (rc, tc) = (sourceCrop.components, crop.components)
        let base = (y * heatSize.height / height) * heatSize.width
        for x in 0..<width {
            let d = differences[x]
            sums[base + column[x]] += d
            counts[base + column[x]] += 1
            total += d
            largest = max(largest, d)
        }
        let r = y - cropRect.y
        guard r >= 0, r < cropRect.height else { return }
        sourceCrop.bytes.withUnsafeMutableBufferPointer {
            ($0.baseAddress! + r * cropRect.width * rc).update(from: reference + cropRect.x * rc, count: cropRect.width * rc)
        }
        crop.bytes.withUnsafeMutableBufferPointer {
            ($0.baseAddress! + r * cropRect.width * tc).update(from: test + cropRect.x * tc, count: cropRect.width * tc)
        }
    }

    /// The heat map: each pixel's mean |ΔY| coloured by `HeatRamp`.
    var heatMap: PicturePixels {
        var picture = PicturePixels(width: heatSize.width, height: heatSize.height, components: 3)
        for i in 0..<sums.count {
            let (r, g, b) = HeatRamp.colour(counts[i] > 0 ? Double(sums[i]) / 1000 / Double(counts[i]) : 0)
            (picture.bytes[3 * i], picture.bytes[3 * i + 1], picture.bytes[3 * i + 2]) = (r, g, b)
        }
        return picture
    }

    /// The mean |ΔY| over the output, in levels.
    var meanDifference: Double { Double(total) / 1000 / Double(max(1, width * height)) }
    /// The largest |ΔY|, in whole levels (rounded up).
    var maxDifference: Int { (largest + 999) / 1000 }
}
