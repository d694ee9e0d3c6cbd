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
        static let image: UInt32 = 1, alpha: UInt32 = 2, toneMap: UInt32 = 3, gainMap: UInt32 = 4, exif: UInt32 = 6, xmp: UInt32 = 7
    }
    /// The `altr` group of the `tmap` and the image: an ID no item uses.
    static let alternativesGroupID = 8
    static let alphaURN = "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"

    /// The `ftyp`, `meta` and an `mdat` header whose payload is the file's first
    /// `wrapping` bytes (its own `ftyp` and `mini` box), to be followed by the file
    /// itself: a reader of the result sees one `ftyp`, one `meta`, and the file's later
    /// boxes, if any. `exifItem` is the `Exif` item's payload (`exifItem(_:)`).
    func heifHeader(exifItem: [UInt8]?, wrapping: Int) -> [UInt8] {
        meta(exifItem: exifItem).heifHeader(ftyp: ftyp, primary: ItemID.image, wrapping: wrapping)
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

    private func meta(exifItem: [UInt8]?) -> MetaBoxWriter {
        var meta = MetaBoxWriter()
        meta.addItem(ItemID.image, type: itemType)

        // An empty configuration chunk gives no property (libheif leaves a `free` box in
        // its place); the decoder then reports the missing configuration.
        func configuration(_ bytes: [UInt8]) -> [(index: Int, essential: Bool)] {
            bytes.isEmpty ? [] : [(meta.addProperty(BoxBytes.box(configurationType, bytes)), true)]
        }
        let transforms = self.transforms.map { (index: meta.addProperty($0.propertyBox), essential: true) }  // transformative: essential
        let size = meta.addProperty(Self.ispe(width: width, height: height))
        var image = configuration(main.configuration) + [(size, false),
                     (meta.addProperty(Self.pixi(channels: chroma.channels, bitDepth: bitDepth)), false),
                     (meta.addProperty(Self.colr(colour)), false)]
        if let icc { image.append((meta.addProperty(BoxBytes.box("colr", BoxBytes.fourCC("prof") + icc)), false)) }
        meta.associate(ItemID.image, image + transforms)
        meta.locate(ItemID.image, inWrapped: [main.data])

        if let alpha {
            meta.addItem(ItemID.alpha, type: itemType, hidden: true)
            meta.associate(ItemID.alpha, configuration(alpha.configuration) + [(size, false),
                (meta.addProperty(BoxBytes.fullBox("auxC", BoxBytes.cString(Self.alphaURN))), true),
                (meta.addProperty(Self.pixi(channels: 1, bitDepth: bitDepth)), false),
            ] + transforms)
            meta.locate(ItemID.alpha, inWrapped: [alpha.data])
            meta.addReference("auxl", from: ItemID.alpha, to: [ItemID.image])
            if alphaPremultiplied { meta.addReference("prem", from: ItemID.image, to: [ItemID.alpha]) }
        }
        if let gainMap {
            meta.addItem(ItemID.toneMap, type: "tmap")
            meta.addItem(ItemID.gainMap, type: itemType, hidden: true)
            let upright = orientation >= 5 ? (width: height, height: width) : (width: width, height: height)
            var toneMap = [(index: meta.addProperty(Self.ispe(width: upright.width, height: upright.height)), essential: false)]
            if let nclx = gainMap.toneMapNCLX { toneMap.append((meta.addProperty(Self.colr(nclx)), false)) }
            if let icc = gainMap.toneMapICC { toneMap.append((meta.addProperty(BoxBytes.box("colr", BoxBytes.fourCC("prof") + icc)), false)) }
            meta.associate(ItemID.toneMap, toneMap)
            meta.associate(ItemID.gainMap, configuration(gainMap.image.configuration) + [
                (meta.addProperty(Self.ispe(width: gainMap.width, height: gainMap.height)), false),
                (meta.addProperty(Self.pixi(channels: gainMap.chroma.channels, bitDepth: gainMap.bitDepth)), false),
                (meta.addProperty(Self.colr(NCLX(primaries: 2, transfer: 2, matrix: gainMap.matrix, fullRange: gainMap.fullRange))), false),
            ] + transforms)
            meta.locate(ItemID.toneMap, inIdat: [0] + gainMap.metadata)
            meta.locate(ItemID.gainMap, inWrapped: [gainMap.image.data])
            meta.addReference("dimg", from: ItemID.toneMap, to: [ItemID.image, ItemID.gainMap])
            meta.addGroup(BoxBytes.fullBox("altr", BoxBytes.u32(Self.alternativesGroupID) + BoxBytes.u32(2)
                + BoxBytes.u32(Int(ItemID.toneMap)) + BoxBytes.u32(Int(ItemID.image))))
        }
        if let exifItem {
            meta.addItem(ItemID.exif, type: "Exif", hidden: true)
            meta.locate(ItemID.exif, inIdat: exifItem)
            meta.addReference("cdsc", from: ItemID.exif, to: [ItemID.image])
        }
        if let xmp {
            meta.addItem(ItemID.xmp, type: "mime", hidden: true, contentType: SourceMetadata.xmpContentType)
            meta.locate(ItemID.xmp, inWrapped: [xmp])
            meta.addReference("cdsc", from: ItemID.xmp, to: [ItemID.image])
        }
        return meta
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
