#if canImport(Glibc)
import Glibc
#endif
import H2JJPEGCodec
import H2JJob
import H2JLibheif

/// Y-PSNR: peak signal-to-noise ratio, in dB, of BT.601 luma between a reference
/// picture and a test picture of the same size, over every pixel.
///
/// Luma is Y = 0.299 R + 0.587 G + 0.114 B on full-range 8-bit samples (a gray sample is
/// its own luma), computed exactly in thousandths (299 R + 587 G + 114 B), so a gray
/// picture and its RGB replica have identical luma. PSNR = 10 log10(255² / MSE).
/// Identical luma gives +infinity, which `compare` prints as "inf" (null in JSON).
struct LumaPSNR {
    /// Σ (ΔY · 1000)² over the pixels added so far.
    private var squaredError = 0.0
    private(set) var pixels = 0

    /// Luma of one pixel in thousandths: `components` is 1 (gray) or 3 (RGB).
    @inline(__always)
    static func luma1000(_ pixel: UnsafePointer<UInt8>, components: Int) -> Int {
        components == 1 ? 1000 * Int(pixel[0]) : 299 * Int(pixel[0]) + 587 * Int(pixel[1]) + 114 * Int(pixel[2])
    }

    /// Adds one row of `width` pixels; each side has `components` 1 or 3 bytes per pixel.
    /// `differences`, if given, receives each pixel's |ΔY| in thousandths.
    mutating func add(reference: UnsafePointer<UInt8>, components referenceComponents: Int,
                      test: UnsafePointer<UInt8>, components testComponents: Int, width: Int,
                      differences: UnsafeMutablePointer<Int>? = nil) {
        // One row's sum stays below 2^53 (255,000² × 65,535 ≈ 4.3e15), so it is exact.
        var row = 0
        for x in 0..<width {
            let d = Self.luma1000(reference + x * referenceComponents, components: referenceComponents)
                - Self.luma1000(test + x * testComponents, components: testComponents)
            differences?[x] = abs(d)
            row += d * d
        }
        squaredError += Double(row)
        pixels += width
    }

    /// The PSNR of everything added: +infinity when the luma is identical, nan when
    /// nothing was added.
    var decibels: Double {
        guard pixels > 0 else { return .nan }
        let mse = squaredError / 1_000_000 / Double(pixels)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Y-PSNR of a decoded JPEG against the decoded source, band by band as the source
    /// hands its (alpha-flattened) rows out. A smaller JPEG (`--max-size`) is measured
    /// against the source reduced to its size by the same `Resize` step, so the figure
    /// is the encoding's loss at that size. `observe` sees each row pair as it is measured:
    /// its index, the source's row, the JPEG's, and each pixel's |ΔY| in thousandths.
    static func measure(source: DecodedImage, against jpeg: DecodedJPEG,
                        observe: ((Int, UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<Int>) -> Void)? = nil)
        throws(CompareError) -> Double {
        let total = Accumulator()
        var differences = [Int](repeating: 0, count: observe == nil ? 0 : jpeg.width)
        let rows = RowSink { rows, stride, count in
            differences.withUnsafeMutableBufferPointer { row in
                for r in 0..<count {
                    total.psnr.add(reference: rows + r * stride, components: source.components,
                                   test: jpeg.row(total.y + r), components: jpeg.components, width: jpeg.width,
                                   differences: observe == nil ? nil : row.baseAddress)
                    observe?(total.y + r, rows + r * stride, jpeg.row(total.y + r), UnsafePointer(row.baseAddress!))
                }
            }
            total.y += count
        }
        let sink: any PixelSink
        if source.width == jpeg.width, source.height == jpeg.height {
            sink = rows
        } else if jpeg.width < source.width || jpeg.height < source.height, jpeg.width <= source.width, jpeg.height <= source.height {
            let input = PixelFormat(width: source.width, height: source.height, layout: .rows(components: source.components, subsampling: .s444))
            sink = Resize(width: jpeg.width, height: jpeg.height).sink(input: input, into: rows)
        } else {
            throw CompareError("the output decodes to \(jpeg.width)×\(jpeg.height), the source to \(source.width)×\(source.height)")
        }
        do {
            try source.forEachBand { rows, stride, count in try sink.writeRows(rows, stride: stride, count: count) }
        } catch {
            throw CompareError("measuring against the resized source: \(error)")
        }
        return total.psnr.decibels
    }

    /// What the row sink's closure adds to: the PSNR so far and the next JPEG row.
    private final class Accumulator {
        var psnr = LumaPSNR()
        var y = 0
    }
}
