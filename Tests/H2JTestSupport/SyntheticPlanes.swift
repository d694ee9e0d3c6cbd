import Foundation
import H2JJPEG
import H2JJPEGCodec

/// Synthetic sample planes laid out the way the tile engine hands them over: each row is
/// the component's width padded to whole 8-sample blocks with edge replicas, then a few
/// garbage bytes up to the stride (which must never reach the JPEG).
package final class SyntheticPlanes {
    package let width: Int
    package let height: Int
    /// Real size of each component: Y (or gray), then Cb and Cr.
    package let sizes: [(width: Int, height: Int)]
    package let strides: [Int]
    /// How the chroma planes are sampled (colour only).
    package let subsampling: ChromaSubsampling
    private let buffers: [UnsafeMutableBufferPointer<UInt8>]

    package init(width: Int, height: Int, components: Int, subsampling: ChromaSubsampling = .s420) {
        self.width = width
        self.height = height
        self.subsampling = subsampling
        let chroma = (subsampling == .s444 ? width : (width + 1) / 2, subsampling == .s420 ? (height + 1) / 2 : height)
        sizes = components == 3 ? [(width, height), chroma, chroma] : [(width, height)]
        strides = sizes.map { ($0.width + 7) / 8 * 8 + 5 }
        var buffers: [UnsafeMutableBufferPointer<UInt8>] = []
        for (component, size) in sizes.enumerated() {
            let stride = strides[component]
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: stride * size.height)
            buffer.initialize(repeating: 0xEE)
            for y in 0..<size.height {
                for x in 0..<((size.width + 7) / 8 * 8) {
                    buffer[y * stride + x] = Self.sample(component, x: min(x, size.width - 1), y: y, size: size)
                }
            }
            buffers.append(buffer)
        }
        self.buffers = buffers
    }

    deinit { buffers.forEach { $0.deallocate() } }

    /// Smooth gradients (spanning at least 32 samples, so small images stay smooth) plus a
    /// sharp diagonal edge in Y and Cr, kept inside the RGB gamut so that the RGB path
    /// never clips.
    private static func sample(_ component: Int, x: Int, y: Int, size: (width: Int, height: Int)) -> UInt8 {
        let fx = Double(x) / Double(max(size.width - 1, 32))
        let fy = Double(y) / Double(max(size.height - 1, 32))
        let edge = 2 * x + y >= size.width + size.height / 2
        let value: Double
        switch component {
        case 0: value = 70 + 70 * fx + 12 * sin(Double(y) * 0.4) + (edge ? 24 : 0)
        case 1: value = 128 + 25 * cos(Double(x) * 0.15 + Double(y) * 0.1)
        default: value = 128 + 35 * (2 * fy - 1) + (edge ? 7 : -7)
        }
        return UInt8(value.rounded())
    }

    /// Sample `x`, `y` of `component` (real coordinates).
    package func sample(_ component: Int, _ x: Int, _ y: Int) -> UInt8 {
        buffers[component][y * strides[component] + x]
    }

    /// The planes for a `writeRaw` call starting at luma row `row`.
    package func planes(fromRow row: Int) -> [UnsafePointer<UInt8>] {
        buffers.enumerated().map { component, buffer in
            let componentRow = component == 0 || subsampling != .s420 ? row : row / 2
            return UnsafePointer(buffer.baseAddress! + componentRow * strides[component])
        }
    }

    /// Feeds every row through `writeRaw`, `chunk` rows per call and the rest in the last.
    package func writeRaw(to writer: JPEGWriter, chunk: Int) throws {
        var row = 0
        while row < height {
            let rows = min(chunk, height - row)
            try writer.writeRaw(planes: planes(fromRow: row), strides: strides, rows: rows)
            row += rows
        }
    }

    /// Interleaved RGB (or the gray plane itself) by the JFIF equations, each chroma
    /// sample covering its luma block (2×2 for 4:2:0): the input of the scanline path.
    package func scanlines() -> [UInt8] {
        guard sizes.count == 3 else { return (0..<height).flatMap { y in (0..<width).map { sample(0, $0, y) } } }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let luma = Double(sample(0, x, y))
                let cx = subsampling == .s444 ? x : x / 2, cy = subsampling == .s420 ? y / 2 : y
                let cb = Double(sample(1, cx, cy)) - 128, cr = Double(sample(2, cx, cy)) - 128
                for value in [luma + 1.402 * cr, luma - 0.344136 * cb - 0.714136 * cr, luma + 1.772 * cb] {
                    rgb.append(UInt8(min(max(value.rounded(), 0), 255)))
                }
            }
        }
        return rgb
    }
}
