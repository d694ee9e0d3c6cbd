/// Assembles ISO-BMFF boxes for tests: `box("pitm", fullBox(0) + u16(1))`.
package enum BoxBuilder {
    package static func u16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
    package static func u32(_ v: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
    package static func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { (i: UInt64) -> UInt8 in UInt8(truncatingIfNeeded: v >> (56 - 8 * i)) } }
    /// `v` in `size` bytes (0, 4 or 8), as `iloc` stores its variable-size fields.
    package static func uint(_ v: UInt64, size: Int) -> [UInt8] { Array(u64(v).suffix(size)) }
    package static func fullBox(_ version: UInt8, flags: UInt8 = 0) -> [UInt8] { [version, 0, 0, flags] }

    package static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(8 + payload.count) + Array(type.utf8) + payload
    }

    package static func infe(id: Int, type: String, hidden: Bool = false, name: String = "", contentType: String? = nil) -> [UInt8] {
        box("infe", fullBox(2, flags: hidden ? 1 : 0) + u16(id) + u16(0) + Array(type.utf8) + Array(name.utf8) + [0]
            + (contentType.map { Array($0.utf8) + [0] } ?? []))
    }

    package static func reference(_ type: String, from: Int, to: [Int]) -> [UInt8] {
        box(type, u16(from) + u16(to.count) + to.flatMap(u16))
    }

    /// A `meta` box with the given items, references and per-item properties. An association
    /// index with bit 0x80 set is essential. `extraItems` are `infe` boxes added to `iinf`;
    /// `extraBoxes` (`iloc`, `idat`, …) are appended to `meta`.
    package static func meta(primary: Int?, items: [(Int, String)], references: [[UInt8]] = [],
                     properties: [[UInt8]] = [], associations: [(Int, [Int])] = [], handler: String = "pict",
                     extraItems: [[UInt8]] = [], extraBoxes: [[UInt8]] = []) -> [UInt8] {
        var payload = fullBox(0)
        payload += box("hdlr", fullBox(0) + u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        if let primary { payload += box("pitm", fullBox(0) + u16(primary)) }
        payload += box("iinf", fullBox(0) + u16(items.count + extraItems.count)
                       + items.flatMap { infe(id: $0.0, type: $0.1) } + extraItems.flatMap { $0 })
        if !references.isEmpty { payload += box("iref", fullBox(0) + references.flatMap { $0 }) }
        var ipma = fullBox(0) + u32(associations.count)
        for (item, indices) in associations {
            ipma += u16(item) + [UInt8(indices.count)] + indices.map { UInt8($0) }
        }
        payload += box("iprp", box("ipco", properties.flatMap { $0 }) + box("ipma", ipma))
        return box("meta", payload + extraBoxes.flatMap { $0 })
    }

    /// One `iloc` entry; each extent is (index, offset, length).
    package struct Location {
        package var id: Int
        package var construction: Int = 0
        package var dataReference: Int = 0
        package var baseOffset: UInt64 = 0
        package var extents: [(index: UInt64, offset: UInt64, length: UInt64)]

        package init(id: Int, construction: Int = 0, dataReference: Int = 0, baseOffset: UInt64 = 0,
                     extents: [(index: UInt64, offset: UInt64, length: UInt64)]) {
            self.id = id
            self.construction = construction
            self.dataReference = dataReference
            self.baseOffset = baseOffset
            self.extents = extents
        }
    }

    /// An `iloc` box of the given version and field sizes.
    package static func iloc(version: UInt8 = 1, offsetSize: Int = 4, lengthSize: Int = 4, baseOffsetSize: Int = 0, indexSize: Int = 0,
                     _ locations: [Location]) -> [UInt8] {
        var payload = fullBox(version) + [UInt8(offsetSize << 4 | lengthSize), UInt8(baseOffsetSize << 4 | indexSize)]
        payload += version < 2 ? u16(locations.count) : u32(locations.count)
        for location in locations {
            payload += version < 2 ? u16(location.id) : u32(location.id)
            if version >= 1 { payload += u16(location.construction) }
            payload += u16(location.dataReference) + uint(location.baseOffset, size: baseOffsetSize) + u16(location.extents.count)
            for extent in location.extents {
                if version >= 1 { payload += uint(extent.index, size: indexSize) }
                payload += uint(extent.offset, size: offsetSize) + uint(extent.length, size: lengthSize)
            }
        }
        return box("iloc", payload)
    }

    package static func idat(_ bytes: [UInt8]) -> [UInt8] { box("idat", bytes) }

    package static func ispe(width: Int, height: Int) -> [UInt8] { box("ispe", fullBox(0) + u32(width) + u32(height)) }
    package static func irot(quarterTurns: Int) -> [UInt8] { box("irot", [UInt8(quarterTurns)]) }
    package static func imir(axis: Int) -> [UInt8] { box("imir", [UInt8(axis)]) }

    /// `clap` from (numerator, denominator) pairs; offsets may be negative.
    package static func clap(width: (Int, Int), height: (Int, Int), horizontalOffset: (Int, Int), verticalOffset: (Int, Int)) -> [UInt8] {
        let values = [width.0, width.1, height.0, height.1, horizontalOffset.0, horizontalOffset.1, verticalOffset.0, verticalOffset.1]
        return box("clap", values.flatMap { u32(Int(UInt32(truncatingIfNeeded: $0))) })
    }

    package static func colr(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) -> [UInt8] {
        box("colr", Array("nclx".utf8) + u16(primaries) + u16(transfer) + u16(matrix) + [fullRange ? 0x80 : 0])
    }

    /// `colr` with an ICC profile: `kind` is `prof` or `rICC`.
    package static func colr(kind: String, icc: [UInt8]) -> [UInt8] { box("colr", Array(kind.utf8) + icc) }

    /// A `grid` item's data (not a box): version 0, 16- or 32-bit output size.
    package static func grid(rows: Int, columns: Int, width: Int, height: Int, wide: Bool = false) -> [UInt8] {
        [0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)] + (wide ? u32(width) + u32(height) : u16(width) + u16(height))
    }

    package static let ftyp = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8))

    /// `hvcC` with the given chroma_format_idc (byte 16 of the payload).
    package static func hvcC(chroma: UInt8) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 23)
        payload[0] = 1
        payload[16] = 0xFC | chroma
        return box("hvcC", payload)
    }

    package static func pixi(channels: Int) -> [UInt8] {
        box("pixi", fullBox(0) + [UInt8(channels)] + [UInt8](repeating: 8, count: channels))
    }
}
