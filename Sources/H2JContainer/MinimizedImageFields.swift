import H2JSupport

/// The bit fields that open a `mini` box's payload (ISO/IEC 23008-12:2024 Amd 2, the
/// MinimizedImageBox), up to the byte boundary where its chunks start: flags, size,
/// pixel format, colour, codec types, the gain map's description, HDR metadata, and the
/// size of every chunk that follows, in chunk order.
///
/// The syntax is the one libheif reads (`Box_mini::parse`, 2026): `large_*` flags select
/// the wider size fields, and with explicit CICP `matrix_coefficients` is present even
/// for 4:0:0 (libavif still omits it there; libheif follows the current draft).
/// HDR metadata (`clli`, `mdcv`, `cclv`, `amve`, `reve`, `ndwt`) is skipped: an 8-bit
/// JPEG has no use for it. Chroma sample positions are skipped too: neither engine
/// reads them.
///
/// Invariant: never traps; a field past the end throws `truncatedBox("mini")`. Every
/// size is at most 28 bits wide, so sums of a few of them cannot overflow.
struct MinimizedImageFields: Equatable {
    /// The gain map's own description (present with `hdr_flag` and `gainmap_flag`).
    struct GainMapFields: Equatable {
        var width = 0
        var height = 0
        var matrix = 0
        var fullRange = false
        var chroma = 0
        var bitDepth = 8
        /// A `tmap` ICC profile chunk follows.
        var toneMapHasICC = false
        /// The `tmap` item's nclx: explicit, else sRGB full range when it has no ICC profile.
        var toneMapNCLX: NCLX?
    }

    /// `infe_type` and `codec_config_type`, when the box names them.
    var itemType: String?
    var configurationType: String?
    var fullRange = false
    var hasICC = false
    var hasEXIF = false
    var hasXMP = false
    var hasAlpha = false
    /// 0 = 4:0:0, 1 = 4:2:0, 2 = 4:2:2, 3 = 4:4:4.
    var chroma = 0
    /// EXIF orientation, 1–8.
    var orientation = 1
    var width = 0
    var height = 0
    var bitDepth = 8
    var alphaPremultiplied = false
    var colour = NCLX(primaries: 1, transfer: 13, matrix: 6, fullRange: false)
    var gainMap: GainMapFields?
    var metadataCompressed = false

    // Chunk sizes, in the order the chunks follow the fields.
    var mainConfigurationSize = 0
    var alphaConfigurationSize = 0
    var gainMapConfigurationSize = 0
    var iccSize = 0
    var toneMapICCSize = 0
    var gainMapMetadataSize = 0
    var alphaDataSize = 0
    var gainMapDataSize = 0
    var mainDataSize = 0
    var exifSize = 0
    var xmpSize = 0

    /// Bytes the fields take, padding to the byte boundary included.
    var length = 0

    /// The fields at the start of `bytes` (a prefix of the payload).
    static func parse(_ bytes: [UInt8]) throws(HEIFError) -> MinimizedImageFields {
        var r = FieldReader(bits: BitReader(bytes))
        var f = MinimizedImageFields()
        let version = try r.read(2)
        guard version == 0 else { throw .malformedBox("mini", reason: "version \(version); only version 0 is defined") }
        let explicitCodecTypes = try r.flag()
        let float = try r.flag()
        f.fullRange = try r.flag()
        f.hasAlpha = try r.flag()
        let explicitCICP = try r.flag()
        let hdr = try r.flag()
        f.hasICC = try r.flag()
        f.hasEXIF = try r.flag()
        f.hasXMP = try r.flag()
        f.chroma = try r.read(2)
        f.orientation = try r.read(3) + 1
        let large = try r.flag()
        f.width = try r.read(large ? 15 : 7) + 1
        f.height = try r.read(large ? 15 : 7) + 1
        try r.skipChromaPosition(f.chroma)
        f.bitDepth = try r.bitDepth(float: float)
        if f.hasAlpha { f.alphaPremultiplied = try r.flag() }
        if explicitCICP {
            f.colour = NCLX(primaries: try r.read(8), transfer: try r.read(8), matrix: try r.read(8), fullRange: f.fullRange)
        } else {
            f.colour = NCLX(primaries: f.hasICC ? 2 : 1, transfer: f.hasICC ? 2 : 13, matrix: f.chroma == 0 ? 2 : 6,
                            fullRange: f.fullRange)
        }
        if explicitCodecTypes {
            f.itemType = try r.fourCC()
            f.configurationType = try r.fourCC()
        }
        if hdr {
            if try r.flag() { f.gainMap = try r.gainMap(width: f.width, height: f.height, large: large) }
            try r.skipHDRProperties()
            if f.gainMap != nil { try r.skipHDRProperties() }
        }
        try f.readChunkSizes(&r)
        f.length = (r.consumed + 7) / 8
        return f
    }

    /// The chunk sizes, after the three `large_*` flags that size their fields.
    private mutating func readChunkSizes(_ r: inout FieldReader) throws(HEIFError) {
        let largeMetadata = try hasICC || hasEXIF || hasXMP || gainMap != nil ? r.flag() : false
        let configurationBits = try r.flag() ? 12 : 3
        let dataBits = try r.flag() ? 28 : 15
        let metadataBits = largeMetadata ? 20 : 10
        if hasICC { iccSize = try r.read(metadataBits) + 1 }
        if let gainMap {
            if gainMap.toneMapHasICC { toneMapICCSize = try r.read(metadataBits) + 1 }
            gainMapMetadataSize = try r.read(metadataBits)
            gainMapDataSize = try r.read(dataBits)
            if gainMapDataSize > 0 { gainMapConfigurationSize = try r.read(configurationBits) }
        }
        mainConfigurationSize = try r.read(configurationBits)
        mainDataSize = try r.read(dataBits) + 1
        if hasAlpha {
            alphaDataSize = try r.read(dataBits)
            if alphaDataSize > 0 { alphaConfigurationSize = try r.read(configurationBits) }
        }
        if hasEXIF || hasXMP { metadataCompressed = try r.flag() }
        if hasEXIF { exifSize = try r.read(metadataBits) + 1 }
        if hasXMP { xmpSize = try r.read(metadataBits) + 1 }
    }
}

/// `BitReader` for the `mini` fields: a field past the end throws, and the bits read
/// are counted, so the chunks' start is known.
private struct FieldReader {
    var bits: BitReader
    var consumed = 0

    mutating func read(_ count: Int) throws(HEIFError) -> Int {
        guard let value = bits.bits(count) else { throw .truncatedBox("mini") }
        consumed += count
        return value
    }

    mutating func flag() throws(HEIFError) -> Bool { try read(1) == 1 }

    mutating func skip(_ count: Int) throws(HEIFError) {
        guard bits.skip(count) else { throw .truncatedBox("mini") }
        consumed += count
    }

    mutating func fourCC() throws(HEIFError) -> String {
        let value = try read(32)
        return ByteReader(BoxBytes.u32(value)).fourCC(0) ?? "????"
    }

    /// `chroma_is_horizontally_centred` (4:2:0, 4:2:2) and `…_vertically_centred` (4:2:0).
    mutating func skipChromaPosition(_ chroma: Int) throws(HEIFError) {
        if chroma == 1 || chroma == 2 { try skip(1) }
        if chroma == 1 { try skip(1) }
    }

    /// Integer samples: 8 bits, or 9–16 after `high_bit_depth_flag`. Floating-point
    /// samples (16–64 bits) are refused: no HEVC or AV1 image has them.
    mutating func bitDepth(float: Bool) throws(HEIFError) -> Int {
        guard !float else { throw .unsupportedItemData(item: 1, reason: "its samples are floating-point ('mini' float_flag)") }
        return try flag() ? read(3) + 9 : 8
    }

    /// The gain map's size, pixel format and its `tmap` item's colour.
    mutating func gainMap(width: Int, height: Int, large: Bool) throws(HEIFError) -> MinimizedImageFields.GainMapFields {
        var g = MinimizedImageFields.GainMapFields(width: width, height: height)
        if try !flag() {  // gainmap_dimension_same_as_main_item_flag
            g.width = try read(large ? 15 : 7) + 1
            g.height = try read(large ? 15 : 7) + 1
        }
        g.matrix = try read(8)
        g.fullRange = try flag()
        g.chroma = try read(2)
        try skipChromaPosition(g.chroma)
        g.bitDepth = try bitDepth(float: try flag())
        g.toneMapHasICC = try flag()
        if try flag() {  // tmap_explicit_cicp_flag
            g.toneMapNCLX = NCLX(primaries: try read(8), transfer: try read(8), matrix: try read(8), fullRange: try flag())
        } else if !g.toneMapHasICC {
            g.toneMapNCLX = NCLX(primaries: 1, transfer: 13, matrix: 6, fullRange: true)
        }
        return g
    }

    /// One image's HDR properties: six presence flags (`clli`, `mdcv`, `cclv`, `amve`,
    /// `reve`, `ndwt`), then the fields of each one present.
    mutating func skipHDRProperties() throws(HEIFError) {
        var present: [Bool] = []
        for _ in 0..<6 { present.append(try flag()) }
        if present[0] { try skip(32) }  // clli: two 16-bit light levels
        if present[1] { try skip(192) }  // mdcv: 3 primaries and the white point (x, y: 16 bits), 2 × 32-bit luminance
        if present[2] { try skipContentColourVolume() }
        if present[3] { try skip(64) }  // amve: 32-bit illuminance, 16-bit x and y
        if present[4] { try skip(128) }  // reve: two (32-bit luminance, 16-bit x and y)
        if present[5] { try skip(32) }  // ndwt: 32-bit diffuse white luminance
    }

    /// `cclv`: cancel and persistence bits, four presence flags, 2 reserved bits, then
    /// 3 primaries (x, y: 32 bits each) and min, max, average luminance (32 bits).
    private mutating func skipContentColourVolume() throws(HEIFError) {
        try skip(2)
        let primaries = try flag(), minimum = try flag(), maximum = try flag(), average = try flag()
        try skip(2)
        if primaries { try skip(192) }
        for present in [minimum, maximum, average] where present { try skip(32) }
    }
}
