import H2JSupport

/// The descriptor of a `grid` derived image (ISO/IEC 23008-12 §6.6.2.3): its item data.
/// Tiles are the item's `dimg` references in row-major order; the canvas of
/// `columns × rows` tiles is cropped to the output size at the right and bottom.
package struct ImageGrid: Sendable, Equatable {
    package let rows: Int
    package let columns: Int
    package let outputWidth: Int
    package let outputHeight: Int

    /// Parses `version` (must be 0), `flags` (bit 0: 32-bit sizes, else 16-bit),
    /// `rows_minus_one`, `columns_minus_one`, `output_width`, `output_height`.
    /// Bytes after these are ignored.
    package static func parse(_ bytes: [UInt8]) throws(HEIFError) -> ImageGrid {
        let reader = ByteReader(bytes)
        guard let version = reader.u8(0), let flags = reader.u8(1),
              let rowsMinusOne = reader.u8(2), let columnsMinusOne = reader.u8(3) else {
            throw .malformedBox("grid", reason: "the descriptor has \(bytes.count) bytes, 8 needed")
        }
        guard version == 0 else { throw .malformedBox("grid", reason: "descriptor version \(version) is not 0") }
        let wide = flags & 1 != 0
        let size: (width: Int, height: Int)?
        if wide {
            size = reader.u32(4).flatMap { width in reader.u32(8).map { (Int(width), Int($0)) } }
        } else {
            size = reader.u16(4).flatMap { width in reader.u16(6).map { (Int(width), Int($0)) } }
        }
        guard let size else {
            throw .malformedBox("grid", reason: "the descriptor has \(bytes.count) bytes, \(wide ? 12 : 8) needed")
        }
        guard size.width > 0, size.height > 0 else {
            throw .malformedBox("grid", reason: "the output size is \(size.width)×\(size.height)")
        }
        return ImageGrid(rows: Int(rowsMinusOne) + 1, columns: Int(columnsMinusOne) + 1,
                         outputWidth: size.width, outputHeight: size.height)
    }
}
