/// The `meta` box of an HEIF the container synthesizes in front of a file's own bytes:
/// a `mini` file's equivalent (`MinimizedImage.heifHeader`), an image item shown as an
/// HEIF of its own (`HEIFStructure.standaloneImage`). Items, references, properties and
/// their associations, locations and entity groups are added; `heifHeader` writes them
/// in the order readers expect (`hdlr`, `pitm`, `iinf`, `iref`, `iprp`, `iloc`, `idat`,
/// `grpl`) after an `ftyp`, followed by an `mdat` header that hides the bytes it wraps.
///
/// Invariant: fields are as narrow as the values allow (16-bit item IDs, 7-bit property
/// indices) and wider only when a value needs it, so what fits keeps the bytes libheif
/// and libavif write; `iloc` offsets and lengths are always 8 bytes wide, so the box's
/// size does not depend on where its extents point.
struct MetaBoxWriter {
    private struct ItemInfo {
        let id: UInt32
        let type: String
        let hidden: Bool
        let contentType: String?
    }

    private struct Reference {
        let type: String
        let from: UInt32
        let to: [UInt32]
    }

    private struct Location {
        let item: UInt32
        let inIdat: Bool
        /// Byte ranges of the wrapped bytes (shifted when written) or of `idat`.
        let extents: [Range<Int>]
    }

    private var infos: [ItemInfo] = []
    private var references: [Reference] = []
    /// The `ipco` boxes, each stored once.
    private var properties: [[UInt8]] = []
    private var associations: [(item: UInt32, list: [(index: Int, essential: Bool)])] = []
    private var locations: [Location] = []
    private var idat: [UInt8] = []
    private var groups: [[UInt8]] = []

    mutating func addItem(_ id: UInt32, type: String, hidden: Bool = false, contentType: String? = nil) {
        infos.append(ItemInfo(id: id, type: type, hidden: hidden, contentType: contentType))
    }

    mutating func addReference(_ type: String, from: UInt32, to: [UInt32]) {
        references.append(Reference(type: type, from: from, to: to))
    }

    /// The 1-based `ipco` index of `box`: adding an identical box again gives the first
    /// one's index (a `mini` file's alpha plane shares the image's `ispe`).
    mutating func addProperty(_ box: [UInt8]) -> Int {
        if let index = properties.firstIndex(of: box) { return index + 1 }
        properties.append(box)
        return properties.count
    }

    mutating func associate(_ item: UInt32, _ list: [(index: Int, essential: Bool)]) {
        associations.append((item, list))
    }

    /// `item`'s data is `extents` of the bytes the header wraps, in order.
    mutating func locate(_ item: UInt32, inWrapped extents: [Range<Int>]) {
        locations.append(Location(item: item, inIdat: false, extents: extents))
    }

    /// `item`'s data is `bytes`, stored in `idat`.
    mutating func locate(_ item: UInt32, inIdat bytes: [UInt8]) {
        locations.append(Location(item: item, inIdat: true, extents: [idat.count..<(idat.count + bytes.count)]))
        idat += bytes
    }

    /// An entity group box (`altr`, …) for `grpl`.
    mutating func addGroup(_ box: [UInt8]) {
        groups.append(box)
    }

    /// `ftyp`, the `meta` box with `primary` as its `pitm`, and an `mdat` header whose
    /// payload is the `wrapping` bytes that follow the header: the extents added with
    /// `locate(_:inWrapped:)` are shifted by the header's length.
    func heifHeader(ftyp: [UInt8], primary: UInt32, wrapping: Int) -> [UInt8] {
        let mdat = wrapping <= Int(UInt32.max) - 8
            ? BoxBytes.u32(8 + wrapping) + BoxBytes.fourCC("mdat")
            : BoxBytes.u32(1) + BoxBytes.fourCC("mdat") + BoxBytes.u64(16 + wrapping)
        // The meta box's size does not depend on the shift: measure with none, then build with the real one.
        let shift = ftyp.count + meta(primary: primary, shift: 0).count + mdat.count
        return ftyp + meta(primary: primary, shift: shift) + mdat
    }

    private func meta(primary: UInt32, shift: Int) -> [UInt8] {
        let ids = [primary] + infos.map(\.id) + references.flatMap { [$0.from] + $0.to } + associations.map(\.item) + locations.map(\.item)
        let wide = ids.contains { $0 > 0xFFFF }
        func id(_ value: UInt32) -> [UInt8] { wide ? BoxBytes.u32(Int(value)) : BoxBytes.u16(Int(value)) }
        let version: UInt8 = wide ? 1 : 0

        let entries = infos.map { info in
            BoxBytes.fullBox("infe", version: wide ? 3 : 2, flags: info.hidden ? 1 : 0, id(info.id) + BoxBytes.u16(0)
                + BoxBytes.fourCC(info.type) + BoxBytes.cString("") + (info.contentType.map(BoxBytes.cString) ?? []))
        }
        let iinf = infos.count <= 0xFFFF
            ? BoxBytes.fullBox("iinf", BoxBytes.u16(infos.count) + entries.flatMap { $0 })
            : BoxBytes.fullBox("iinf", version: 1, BoxBytes.u32(infos.count) + entries.flatMap { $0 })

        // 7-bit property indices while they fit, else 15-bit ones (`ipma` flags bit 0).
        let wideIndex = properties.count > 0x7F
        var ipma = BoxBytes.u32(associations.count)
        for (item, list) in associations {
            let kept = list.prefix(0xFF)
            ipma += id(item) + [UInt8(kept.count)]
            for (index, essential) in kept {
                ipma += wideIndex ? BoxBytes.u16(index | (essential ? 0x8000 : 0)) : [UInt8(truncatingIfNeeded: index) | (essential ? 0x80 : 0)]
            }
        }

        // Version 1 (2 with 32-bit IDs): 8-byte offsets and lengths, no base offset, no extent index.
        var iloc = [0x88, 0x00] + (wide ? BoxBytes.u32(locations.count) : BoxBytes.u16(locations.count))
        for location in locations {
            iloc += id(location.item) + BoxBytes.u16(location.inIdat ? 1 : 0) + BoxBytes.u16(0) + BoxBytes.u16(location.extents.count)
            for extent in location.extents {
                iloc += BoxBytes.u64(extent.lowerBound + (location.inIdat ? 0 : shift)) + BoxBytes.u64(extent.count)
            }
        }

        var payload = BoxBytes.fullBox("hdlr", BoxBytes.u32(0) + BoxBytes.fourCC("pict") + [UInt8](repeating: 0, count: 12) + [0])
            + BoxBytes.fullBox("pitm", version: version, id(primary)) + iinf
        if !references.isEmpty {
            payload += BoxBytes.fullBox("iref", version: version, references.flatMap { reference in
                BoxBytes.box(reference.type, id(reference.from) + BoxBytes.u16(reference.to.count) + reference.to.flatMap(id))
            })
        }
        payload += BoxBytes.box("iprp", BoxBytes.box("ipco", properties.flatMap { $0 })
                                    + BoxBytes.fullBox("ipma", version: version, flags: wideIndex ? 1 : 0, ipma))
            + BoxBytes.fullBox("iloc", version: wide ? 2 : 1, iloc)
        if !idat.isEmpty { payload += BoxBytes.box("idat", idat) }
        if !groups.isEmpty { payload += BoxBytes.box("grpl", groups.flatMap { $0 }) }
        return BoxBytes.fullBox("meta", payload)
    }
}
