import H2JSupport

/// The descriptor of an `iovl` derived image (ISO/IEC 23008-12 §6.6.2.2): its item data.
/// Layers are the item's `dimg` references, the first at the bottom, each placed with its
/// top-left corner at a signed offset that may lie anywhere, on the canvas or off it.
package struct ImageOverlay: Sendable, Equatable {
    /// The canvas fill, 16 bits per sample: red, green, blue, alpha (65,535 opaque).
    package let fill: [UInt16]
    package let width: Int
    package let height: Int
    /// One (x, y) per layer, in `dimg` order.
    package let offsets: [(x: Int, y: Int)]

    /// Parses `version` (must be 0), `flags` (bit 0: 32-bit fields, else 16-bit), four
    /// 16-bit fill values, the output width and height, then `layers` signed offset pairs.
    /// With `layers` nil only the canvas is read (the offsets are left empty).
    package static func parse(_ bytes: [UInt8], layers: Int?) throws(HEIFError) -> ImageOverlay {
        let reader = ByteReader(bytes)
        guard let version = reader.u8(0), let flags = reader.u8(1) else {
            throw .malformedBox("iovl", reason: "the descriptor has \(bytes.count) bytes, 12 or more needed")
        }
        guard version == 0 else { throw .malformedBox("iovl", reason: "descriptor version \(version) is not 0") }
        let field = flags & 1 != 0 ? 4 : 2
        func unsigned(_ offset: Int) -> Int? {
            field == 4 ? reader.u32(offset).map(Int.init) : reader.u16(offset).map(Int.init)
        }
        func signed(_ offset: Int) -> Int? {
            field == 4 ? reader.u32(offset).map { Int(Int32(bitPattern: $0)) } : reader.u16(offset).map { Int(Int16(bitPattern: $0)) }
        }
        let fill = (0..<4).compactMap { reader.u16(2 + 2 * $0) }
        guard fill.count == 4, let width = unsigned(10), let height = unsigned(10 + field) else {
            throw .malformedBox("iovl", reason: "the descriptor ends before its canvas size")
        }
        var offsets: [(x: Int, y: Int)] = []
        let first = 10 + 2 * field
        for layer in 0..<(layers ?? 0) {
            guard let x = signed(first + 2 * field * layer), let y = signed(first + 2 * field * layer + field) else {
                throw .malformedBox("iovl", reason: "the descriptor has \(bytes.count) bytes, too few for the offsets of \(layers ?? 0) layers")
            }
            offsets.append((x, y))
        }
        return ImageOverlay(fill: fill, width: width, height: height, offsets: offsets)
    }

    package static func == (a: ImageOverlay, b: ImageOverlay) -> Bool {
        a.fill == b.fill && a.width == b.width && a.height == b.height
            && a.offsets.map(\.x) == b.offsets.map(\.x) && a.offsets.map(\.y) == b.offsets.map(\.y)
    }
}
