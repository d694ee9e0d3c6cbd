import H2JSupport

/// The ordinary HEIF a `mini` box stands for: an `ftyp` and a `meta` box with the items,
/// properties and references the amendment's expansion defines, numbered as libheif
/// and libavif number them (1 the image, 2 its alpha plane, 3 the `tmap`, 4 the gain
/// map, 6 the EXIF, 7 the XMP).
///
/// Coded data and XMP stay where they are: `iloc` extents point into the file, which
/// follows this header (shifted by its length). What HEIF stores differently lives in
/// `idat`: the `Exif` item (HEIF puts a 4-byte TIFF header offset before the EXIF,
/// which `mini` stores raw) and the `tmap` item (a version byte before the metadata).
extension MinimizedImage {
    enum ItemID {
        static let image = 1, alpha = 2, toneMap = 3, gainMap = 4, exif = 6, xmp = 7
    }
    /// The `altr` group of the `tmap` and the image: an ID no item uses.
    static let alternativesGroupID = 8
    static let alphaURN = "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"

    /// The `ftyp`, `meta` and an `mdat` header whose payload is the file's first
    /// `wrapping` bytes (its own `ftyp` and `mini` box), to be followed by the file
    /// itself: a reader of the result sees one `ftyp`, one `meta`, and the file's later
    /// boxes, if any. `exifItem` is the `Exif` item's payload (`exifItem(_:)`).
    func heifHeader(exifItem: [UInt8]?, wrapping: Int) -> [UInt8] {
        let ftyp = self.ftyp
        let mdat = wrapping <= Int(UInt32.max) - 8
            ? BoxBytes.u32(8 + wrapping) + BoxBytes.fourCC("mdat")
            : BoxBytes.u32(1) + BoxBytes.fourCC("mdat") + BoxBytes.u64(16 + wrapping)
        // `iloc` fields are 8 bytes wide, so the meta box's size does not depend on the
        // shift: measure with none, then build with the real one.
        let shift = ftyp.count + meta(exifItem: exifItem, shift: 0).count + mdat.count
        return ftyp + meta(exifItem: exifItem, shift: shift) + mdat
    }

    /// HEIF's `Exif` item for raw EXIF: the `exif_tiff_header_offset` (6 when the data
    /// starts with `Exif\0\0`, else 0), then the data.
    static func exifItem(_ data: [UInt8]) -> [UInt8] {
        BoxBytes.u32(data.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0) + data
    }

    /// Major brand `heic` or `avif` by codec (`mif1` for any other), compatible with
    /// `mif1`, and `tmap` when there is a gain map.
    private var ftyp: [UInt8] {
        let codecBrand = ["hvc1": "heic", "av01": "avif"][itemType] ?? "mif1"
        let brands = [codecBrand, "mif1"] + (gainMap != nil ? ["tmap"] : [])
        return BoxBytes.box("ftyp", BoxBytes.fourCC(codecBrand) + BoxBytes.u32(0) + brands.flatMap(BoxBytes.fourCC))
    }

    private func meta(exifItem: [UInt8]?, shift: Int) -> [UInt8] {
        var items: [[UInt8]] = [infe(ItemID.image, itemType)]
        var references: [[UInt8]] = []
        var properties = PropertyTable()
        var associations: [(item: Int, list: [(index: Int, essential: Bool)])] = []
        var locations: [(item: Int, inIdat: Bool, extent: Range<Int>)] = []
        var idat: [UInt8] = []
        func fileExtent(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + shift)..<(range.upperBound + shift) }
        func inIdat(_ bytes: [UInt8]) -> Range<Int> {
            defer { idat += bytes }
            return idat.count..<(idat.count + bytes.count)
        }

        // An empty configuration chunk gives no property (libheif leaves a `free` box in
        // its place); the decoder then reports the missing configuration.
        func configuration(_ bytes: [UInt8]) -> [(Int, Bool)] {
            bytes.isEmpty ? [] : [(properties.add(BoxBytes.box(configurationType, bytes)), true)]
        }
        let steps = orientationSteps
        let transforms = ([steps.quarterTurns.map { BoxBytes.box("irot", [UInt8($0)]) },
                           steps.mirror.map { BoxBytes.box("imir", [$0 == .horizontal ? 1 : 0]) }] as [[UInt8]?])
            .compactMap { $0 }.map { (properties.add($0), true) }  // transformative: essential
        let size = properties.add(Self.ispe(width: width, height: height))
        var image = configuration(main.configuration) + [(size, false),
                     (properties.add(Self.pixi(channels: chroma.channels, bitDepth: bitDepth)), false),
                     (properties.add(Self.colr(colour)), false)]
        if let icc { image.append((properties.add(BoxBytes.box("colr", BoxBytes.fourCC("prof") + icc)), false)) }
        associations.append((ItemID.image, image + transforms))
        locations.append((ItemID.image, false, fileExtent(main.data)))

        if let alpha {
            items.append(infe(ItemID.alpha, itemType, hidden: true))
            associations.append((ItemID.alpha, configuration(alpha.configuration) + [(size, false),
                (properties.add(BoxBytes.fullBox("auxC", BoxBytes.cString(Self.alphaURN))), true),
                (properties.add(Self.pixi(channels: 1, bitDepth: bitDepth)), false),
            ] + transforms))
            locations.append((ItemID.alpha, false, fileExtent(alpha.data)))
            references.append(Self.reference("auxl", from: ItemID.alpha, to: [ItemID.image]))
            if alphaPremultiplied { references.append(Self.reference("prem", from: ItemID.image, to: [ItemID.alpha])) }
        }
        if let gainMap {
            items += [infe(ItemID.toneMap, "tmap"), infe(ItemID.gainMap, itemType, hidden: true)]
            let upright = orientation >= 5 ? (width: height, height: width) : (width: width, height: height)
            var toneMap = [(properties.add(Self.ispe(width: upright.width, height: upright.height)), false)]
            if let nclx = gainMap.toneMapNCLX { toneMap.append((properties.add(Self.colr(nclx)), false)) }
            if let icc = gainMap.toneMapICC { toneMap.append((properties.add(BoxBytes.box("colr", BoxBytes.fourCC("prof") + icc)), false)) }
            associations.append((ItemID.toneMap, toneMap))
            associations.append((ItemID.gainMap, configuration(gainMap.image.configuration) + [
                (properties.add(Self.ispe(width: gainMap.width, height: gainMap.height)), false),
                (properties.add(Self.pixi(channels: gainMap.chroma.channels, bitDepth: gainMap.bitDepth)), false),
                (properties.add(Self.colr(NCLX(primaries: 2, transfer: 2, matrix: gainMap.matrix, fullRange: gainMap.fullRange))), false),
            ] + transforms))
            locations.append((ItemID.toneMap, true, inIdat([0] + gainMap.metadata)))
            locations.append((ItemID.gainMap, false, fileExtent(gainMap.image.data)))
            references.append(Self.reference("dimg", from: ItemID.toneMap, to: [ItemID.image, ItemID.gainMap]))
        }
        if let exifItem {
            items.append(infe(ItemID.exif, "Exif", hidden: true))
            locations.append((ItemID.exif, true, inIdat(exifItem)))
            references.append(Self.reference("cdsc", from: ItemID.exif, to: [ItemID.image]))
        }
        if let xmp {
            items.append(infe(ItemID.xmp, "mime", hidden: true, contentType: SourceMetadata.xmpContentType))
            locations.append((ItemID.xmp, false, fileExtent(xmp)))
            references.append(Self.reference("cdsc", from: ItemID.xmp, to: [ItemID.image]))
        }

        // At most 17 properties: 7-bit indices (`ipma` version 0, flags 0) are enough.
        var ipma = BoxBytes.u32(associations.count)
        for (item, list) in associations {
            ipma += BoxBytes.u16(item) + [UInt8(list.count)] + list.map { UInt8($0.index) | ($0.essential ? 0x80 : 0) }
        }
        var iloc = [0x88, 0x00] + BoxBytes.u16(locations.count)  // 8-byte offsets and lengths; no base offset, no index
        for location in locations {
            iloc += BoxBytes.u16(location.item) + BoxBytes.u16(location.inIdat ? 1 : 0) + BoxBytes.u16(0) + BoxBytes.u16(1)
                + BoxBytes.u64(location.extent.lowerBound) + BoxBytes.u64(location.extent.count)
        }
        var payload = BoxBytes.fullBox("hdlr", BoxBytes.u32(0) + BoxBytes.fourCC("pict") + [UInt8](repeating: 0, count: 12) + [0])
            + BoxBytes.fullBox("pitm", BoxBytes.u16(ItemID.image))
            + BoxBytes.fullBox("iinf", BoxBytes.u16(items.count) + items.flatMap { $0 })
        if !references.isEmpty { payload += BoxBytes.fullBox("iref", references.flatMap { $0 }) }
        payload += BoxBytes.box("iprp", BoxBytes.box("ipco", properties.boxes.flatMap { $0 }) + BoxBytes.fullBox("ipma", ipma))
            + BoxBytes.fullBox("iloc", version: 1, iloc)
        if !idat.isEmpty { payload += BoxBytes.box("idat", idat) }
        if gainMap != nil {
            payload += BoxBytes.box("grpl", BoxBytes.fullBox("altr", BoxBytes.u32(Self.alternativesGroupID) + BoxBytes.u32(2)
                + BoxBytes.u32(ItemID.toneMap) + BoxBytes.u32(ItemID.image)))
        }
        return BoxBytes.fullBox("meta", payload)
    }

    /// The properties of `ipco`, each stored once: adding an identical box again gives
    /// the first one's 1-based index (the alpha plane shares the image's `ispe`).
    private struct PropertyTable {
        var boxes: [[UInt8]] = []

        mutating func add(_ box: [UInt8]) -> Int {
            if let index = boxes.firstIndex(of: box) { return index + 1 }
            boxes.append(box)
            return boxes.count
        }
    }

    private func infe(_ id: Int, _ type: String, hidden: Bool = false, contentType: String? = nil) -> [UInt8] {
        BoxBytes.fullBox("infe", version: 2, flags: hidden ? 1 : 0, BoxBytes.u16(id) + BoxBytes.u16(0) + BoxBytes.fourCC(type)
            + BoxBytes.cString("") + (contentType.map(BoxBytes.cString) ?? []))
    }

    private static func reference(_ type: String, from: Int, to: [Int]) -> [UInt8] {
        BoxBytes.box(type, BoxBytes.u16(from) + BoxBytes.u16(to.count) + to.flatMap(BoxBytes.u16))
    }

    private static func ispe(width: Int, height: Int) -> [UInt8] {
        BoxBytes.fullBox("ispe", BoxBytes.u32(width) + BoxBytes.u32(height))
    }

    private static func pixi(channels: Int, bitDepth: Int) -> [UInt8] {
        BoxBytes.fullBox("pixi", [UInt8(channels)] + [UInt8](repeating: UInt8(bitDepth), count: channels))
    }

    private static func colr(_ nclx: NCLX) -> [UInt8] {
        BoxBytes.box("colr", BoxBytes.fourCC("nclx") + BoxBytes.u16(nclx.primaries) + BoxBytes.u16(nclx.transfer)
            + BoxBytes.u16(nclx.matrix) + [nclx.fullRange ? 0x80 : 0])
    }
}
