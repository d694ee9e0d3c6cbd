/// Writes bits most-significant first, as the `mini` box packs its fields.
package struct BitWriter {
    package private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    package init() {}

    package mutating func put(_ value: Int, bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> shift) & 1) << (7 - UInt8(bitCount % 8))
            bitCount += 1
        }
    }

    package mutating func flag(_ value: Bool) { put(value ? 1 : 0, bits: 1) }
}

/// Builds a low-overhead HEIF file (`ftyp` with major brand `mif3` and the codec brand
/// as minor version, then a `mini` box) field by field, in the syntax of ISO/IEC
/// 23008-12:2024 Amd 2 as libheif reads it. Chunk sizes and the `large_*` flags are
/// derived from the contents.
package struct MiniBoxBuilder {
    /// The gain map of an HDR image; the box also gets a `clli` and an `mdcv`, so the
    /// HDR properties are skipped on the way to the chunk sizes.
    package struct GainMap {
        package var width: Int?
        package var height: Int?
        package var configuration: [UInt8] = []
        package var data: [UInt8] = [0x47, 0x4D]
        package var metadata: [UInt8] = [0, 1, 2, 3]
        package init() {}
    }

    package var brand = "avif"
    package var version = 0
    package var codecTypes: (item: String, configuration: String)?
    package var float = false
    package var fullRange = true
    package var chroma = 1
    package var orientation = 1
    package var width = 32
    package var height = 32
    package var bitDepth = 8
    /// Colour primaries, transfer and matrix, when explicit.
    package var cicp: (Int, Int, Int)?
    package var mainConfiguration: [UInt8] = [0x81, 0x00, 0x0C, 0x00]
    package var mainData: [UInt8] = Array(0..<40)
    package var alphaData: [UInt8]?
    /// Empty: the alpha plane uses the main configuration.
    package var alphaConfiguration: [UInt8] = []
    package var alphaPremultiplied = false
    package var icc: [UInt8]?
    package var exif: [UInt8]?
    package var xmp: [UInt8]?
    package var metadataCompressed = false
    package var gainMap: GainMap?
    /// Bytes after the `mini` box.
    package var trailer: [UInt8] = []

    package init() {}

    /// The `ftyp` box: 16 bytes, `mif3` with the codec brand as minor version.
    package var ftyp: [UInt8] { BoxBuilder.box("ftyp", Array("mif3".utf8) + Array(brand.utf8)) }

    /// The whole file.
    package var file: [UInt8] { ftyp + BoxBuilder.box("mini", payload) + trailer }

    /// The `mini` box's payload: the fields, then the chunks.
    package var payload: [UInt8] {
        var w = BitWriter()
        w.put(version, bits: 2)
        for flag in [codecTypes != nil, float, fullRange, alphaData != nil, cicp != nil, gainMap != nil, icc != nil, exif != nil, xmp != nil] {
            w.flag(flag)
        }
        w.put(chroma, bits: 2)
        w.put(orientation - 1, bits: 3)
        let large = width > 128 || height > 128
        w.flag(large)
        w.put(width - 1, bits: large ? 15 : 7)
        w.put(height - 1, bits: large ? 15 : 7)
        if chroma == 1 || chroma == 2 { w.flag(false) }
        if chroma == 1 { w.flag(true) }
        if float {
            w.put(0, bits: 2)
        } else {
            w.flag(bitDepth > 8)
            if bitDepth > 8 { w.put(bitDepth - 9, bits: 3) }
        }
        if alphaData != nil { w.flag(alphaPremultiplied) }
        if let cicp {
            w.put(cicp.0, bits: 8)
            w.put(cicp.1, bits: 8)
            w.put(cicp.2, bits: 8)
        }
        if let codecTypes {
            for code in [codecTypes.item, codecTypes.configuration] { w.put(Array(code.utf8).reduce(0) { $0 << 8 | Int($1) }, bits: 32) }
        }
        if let gainMap {
            w.flag(true)  // gainmap_flag
            let same = gainMap.width == nil
            w.flag(same)
            if !same {
                w.put((gainMap.width ?? 1) - 1, bits: large ? 15 : 7)
                w.put((gainMap.height ?? 1) - 1, bits: large ? 15 : 7)
            }
            w.put(6, bits: 8)  // matrix
            w.flag(true)  // full range
            w.put(0, bits: 2)  // 4:0:0
            w.flag(false)  // float
            w.flag(false)  // high bit depth
            w.flag(false)  // tmap ICC
            w.flag(false)  // tmap explicit CICP
            for present in [true, true, false, false, false, false] { w.flag(present) }  // clli, mdcv
            w.put(1000, bits: 16)
            w.put(400, bits: 16)
            for _ in 0..<6 { w.put(0x1234, bits: 16) }
            w.put(0x3D13, bits: 16)
            w.put(0x4042, bits: 16)
            w.put(10_000_000, bits: 32)
            w.put(50, bits: 32)
            for _ in 0..<6 { w.flag(false) }  // the tmap's: none
        }
        let metadataSizes = [icc?.count, gainMap.map { $0.metadata.count + 1 }, exif?.count, xmp?.count].compactMap { $0 }
        let largeMetadata = metadataSizes.contains { $0 > 1024 }
        if !metadataSizes.isEmpty { w.flag(largeMetadata) }
        let configurations = [mainConfiguration.count, alphaConfiguration.count, gainMap?.configuration.count ?? 0]
        let largeConfiguration = configurations.contains { $0 > 7 }
        w.flag(largeConfiguration)
        let dataSizes = [mainData.count, alphaData?.count ?? 0, gainMap?.data.count ?? 0]
        let largeData = dataSizes.contains { $0 > 32_767 }
        w.flag(largeData)
        let metadataBits = largeMetadata ? 20 : 10, configurationBits = largeConfiguration ? 12 : 3, dataBits = largeData ? 28 : 15
        if let icc { w.put(icc.count - 1, bits: metadataBits) }
        if let gainMap {
            w.put(gainMap.metadata.count, bits: metadataBits)
            w.put(gainMap.data.count, bits: dataBits)
            if !gainMap.data.isEmpty { w.put(gainMap.configuration.count, bits: configurationBits) }
        }
        w.put(mainConfiguration.count, bits: configurationBits)
        w.put(mainData.count - 1, bits: dataBits)
        if let alphaData {
            w.put(alphaData.count, bits: dataBits)
            if !alphaData.isEmpty { w.put(alphaConfiguration.count, bits: configurationBits) }
        }
        if exif != nil || xmp != nil { w.flag(metadataCompressed) }
        if let exif { w.put(exif.count - 1, bits: metadataBits) }
        if let xmp { w.put(xmp.count - 1, bits: metadataBits) }
        return w.bytes + mainConfiguration + alphaConfiguration + (gainMap?.configuration ?? []) + (icc ?? [])
            + (gainMap?.metadata ?? []) + (alphaData ?? []) + (gainMap?.data ?? []) + mainData + (exif ?? []) + (xmp ?? [])
    }
}
