import H2JSupport

/// Image size from `ispe`: the coded (or derived) image before any transform.
package struct ImageSize: Sendable, Equatable {
    package let width: Int
    package let height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Which way `imir` mirrors. The names are those of the `axis` bit values (0 and 1).
///
/// Pixel meaning, as libheif 1.15 applies it (`Box_imir::parse` maps bit 1 to
/// `MirrorDirection::Horizontal`, and `HeifPixelImage::mirror_inplace(horizontal)` then
/// swaps columns; checked by decoding a patched file with heif-convert 1.15.1), and as
/// Apple writes it and ISO/IEC 23008-12:2022 words it:
/// - `.vertical` (0): top and bottom are exchanged (rows reversed).
/// - `.horizontal` (1): left and right are exchanged (columns reversed).
package enum MirrorAxis: Sendable, Equatable {
    case vertical
    case horizontal
}

/// One transformative property of an item, in the order HEIF applies them.
package enum ImageTransform: Sendable, Equatable {
    /// `clap`: crop to a clean aperture.
    case cleanAperture(CleanAperture)
    /// `irot`: rotate anticlockwise by 0–3 quarter turns.
    case rotation(quarterTurnsAnticlockwise: Int)
    /// `imir`: mirror.
    case mirror(MirrorAxis)
}

/// Colour description from `colr` (ISO/IEC 14496-12 §12.1.5); a file may carry both kinds.
package struct NCLX: Sendable, Equatable {
    /// ITU-T H.273 code points.
    package let primaries: Int
    package let transfer: Int
    package let matrix: Int
    package let fullRange: Bool

    package init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }
}

package struct ColourInformation: Sendable, Equatable {
    /// From the first well-formed `colr` of type `nclx`.
    package var nclx: NCLX?
    /// ICC profile bytes from the first non-empty `colr` of type `prof` or `rICC`.
    package var icc: [UInt8]?
}

/// Typed views of an item's properties. Property payloads are untrusted: each accessor
/// reads through `ByteReader`, and a payload too short for its fields counts as absent
/// (the non-throwing accessors) or as a `malformedBox` (`transforms`).
extension HEIFStructure {
    /// `ispe` (a FullBox: version/flags, then 32-bit width and height).
    package func imageSize(of id: UInt32) -> ImageSize? {
        guard let ispe = properties(of: id, type: "ispe").first else { return nil }
        let reader = ByteReader(ispe.payload)
        guard let width = reader.u32(4), let height = reader.u32(8) else { return nil }
        return ImageSize(width: Int(width), height: Int(height))
    }

    /// `clap`, `irot` and `imir` of the item, in `ipma` order, which is the order they
    /// apply. Throws when one of them is too short or holds values libheif refuses.
    package func transforms(of id: UInt32) throws(HEIFError) -> [ImageTransform] {
        var transforms: [ImageTransform] = []
        for property in associatedProperties(of: id) {
            switch property.type {
            case "clap":
                transforms.append(.cleanAperture(try CleanAperture.parse(property.payload)))
            case "irot":
                guard let angle = property.payload.first else { throw .malformedBox("irot", reason: "no angle byte") }
                transforms.append(.rotation(quarterTurnsAnticlockwise: Int(angle & 0x03)))
            case "imir":
                guard let axis = property.payload.first else { throw .malformedBox("imir", reason: "no axis byte") }
                transforms.append(.mirror(axis & 0x01 == 0 ? .vertical : .horizontal))
            default:
                continue
            }
        }
        return transforms
    }

    /// `colr` boxes of the item: the first valid `nclx` and the first non-empty ICC profile.
    package func colour(of id: UInt32) -> ColourInformation {
        var colour = ColourInformation(nclx: nil, icc: nil)
        for colr in properties(of: id, type: "colr") {
            let reader = ByteReader(colr.payload)
            let kind = reader.fourCC(0)
            if kind == "nclx", colour.nclx == nil, let primaries = reader.u16(4), let transfer = reader.u16(6),
               let matrix = reader.u16(8), let range = reader.u8(10) {
                colour.nclx = NCLX(primaries: Int(primaries), transfer: Int(transfer), matrix: Int(matrix), fullRange: range & 0x80 != 0)
            } else if kind == "prof" || kind == "rICC", colour.icc == nil, colr.payload.count > 4 {
                colour.icc = Array(colr.payload.dropFirst(4))
            }
        }
        return colour
    }

    /// Bits per channel from `pixi` (FullBox, channel count, one byte per channel).
    package func bitDepths(of id: UInt32) -> [Int]? {
        guard let pixi = properties(of: id, type: "pixi").first else { return nil }
        let reader = ByteReader(pixi.payload)
        guard let channels = reader.u8(4), let depths = reader.slice(5, Int(channels)) else { return nil }
        return depths.map(Int.init)
    }

    /// The URN naming what an auxiliary image holds (`auxC`, FullBox, null-terminated),
    /// e.g. `urn:mpeg:hevc:2015:auxid:1` for alpha.
    package func auxiliaryType(of id: UInt32) -> String? {
        guard let auxC = properties(of: id, type: "auxC").first, auxC.payload.count >= 4 else { return nil }
        let reader = ByteReader(auxC.payload)
        return reader.nullTerminatedString(from: 4, to: reader.count).string
    }
}
