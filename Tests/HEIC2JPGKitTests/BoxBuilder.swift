/// Assembles ISO-BMFF boxes for tests: `box("pitm", fullBox(0) + u16(1))`.
enum BoxBuilder {
    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func fullBox(_ version: UInt8, flags: UInt8 = 0) -> [UInt8] { [version, 0, 0, flags] }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(8 + payload.count) + Array(type.utf8) + payload
    }

    static func infe(id: Int, type: String, hidden: Bool = false) -> [UInt8] {
        box("infe", fullBox(2, flags: hidden ? 1 : 0) + u16(id) + u16(0) + Array(type.utf8) + [0])
    }

    static func reference(_ type: String, from: Int, to: [Int]) -> [UInt8] {
        box(type, u16(from) + u16(to.count) + to.flatMap(u16))
    }

    /// A `meta` box with the given items, references and per-item properties.
    static func meta(primary: Int?, items: [(Int, String)], references: [[UInt8]] = [],
                     properties: [[UInt8]] = [], associations: [(Int, [Int])] = [], handler: String = "pict") -> [UInt8] {
        var payload = fullBox(0)
        payload += box("hdlr", fullBox(0) + u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        if let primary { payload += box("pitm", fullBox(0) + u16(primary)) }
        payload += box("iinf", fullBox(0) + u16(items.count) + items.flatMap { infe(id: $0.0, type: $0.1) })
        if !references.isEmpty { payload += box("iref", fullBox(0) + references.flatMap { $0 }) }
        var ipma = fullBox(0) + u32(associations.count)
        for (item, indices) in associations {
            ipma += u16(item) + [UInt8(indices.count)] + indices.map { UInt8($0) }
        }
        payload += box("iprp", box("ipco", properties.flatMap { $0 }) + box("ipma", ipma))
        return box("meta", payload)
    }

    static let ftyp = box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8))

    /// `hvcC` with the given chroma_format_idc (byte 16 of the payload).
    static func hvcC(chroma: UInt8) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: 23)
        payload[0] = 1
        payload[16] = 0xFC | chroma
        return box("hvcC", payload)
    }

    static func pixi(channels: Int) -> [UInt8] {
        box("pixi", fullBox(0) + [UInt8(channels)] + [UInt8](repeating: 8, count: channels))
    }
}
