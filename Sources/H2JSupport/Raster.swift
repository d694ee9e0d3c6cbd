/// An 8-bit image held whole in memory: `height` rows of `width` × `components` bytes
/// (1 gray, 3 RGB), for decoders that produce the whole picture at once (an
/// uncompressed HEIF image).
///
/// Invariant: `pixels` holds exactly `width * height * components` bytes, zeroed at
/// first, and is freed on deinit; `init` refuses sizes whose product overflows.
package final class Raster {
    package let width: Int
    package let height: Int
    package let components: Int
    package let pixels: UnsafeMutableBufferPointer<UInt8>

    /// Allocates a zeroed raster; nil when a size is not positive or the byte count overflows.
    package init?(width: Int, height: Int, components: Int) {
        guard width > 0, height > 0, components > 0 else { return nil }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow2) = area.multipliedReportingOverflow(by: components)
        guard !overflow, !overflow2 else { return nil }
        self.width = width
        self.height = height
        self.components = components
        pixels = .allocate(capacity: bytes)
        pixels.initialize(repeating: 0)
    }

    deinit { pixels.deallocate() }

    /// Row `y` (0 ≤ y < height), to fill.
    package func mutableRow(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        return pixels.baseAddress! + y * width * components
    }

    /// Row `y` (0 ≤ y < height), to read.
    package func row(_ y: Int) -> UnsafePointer<UInt8> { UnsafePointer(mutableRow(y)) }

    /// A raster filled by `bands` (each call: rows of at least `width × components`
    /// bytes, `stride` apart, top to bottom); nil when they are not exactly `height` rows
    /// of that width, or the size cannot be held.
    package static func gathering(width: Int, height: Int, components: Int,
                                  _ bands: ((UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) throws -> Void)
        throws -> Raster? {
        guard let raster = Raster(width: width, height: height, components: components) else { return nil }
        let rowBytes = width * components
        var row = 0, fits = true
        try bands { rows, stride, count in
            guard fits, stride >= rowBytes, count >= 0, row + count <= height else { fits = false; return }
            for r in 0..<count { raster.mutableRow(row + r).update(from: rows + r * stride, count: rowBytes) }
            row += count
        }
        return fits && row == height ? raster : nil
    }
}
