import H2JSupport

/// A low-overhead HEIF file's `mini` box (MinimizedImageBox, ISO/IEC 23008-12:2024
/// Amd 2; `ftyp` brand `mif3`): one image, with an optional alpha plane and gain map,
/// its colour, orientation, EXIF and XMP, told in a few bit fields
/// (`MinimizedImageFields`) followed by chunks, instead of a `meta` box.
///
/// What is kept in memory is small (codec configurations, ICC profiles, gain-map
/// metadata: each chunk at most 2^20 bytes by the syntax); coded data, EXIF and XMP are
/// located as byte ranges of the file, and read only when needed.
/// `translating(_:)` shows such a file as the ordinary HEIF it stands for.
///
/// Invariant: reading never traps, whatever the bytes: every field is read through a
/// bounds-checked `BitReader`, and every chunk is placed with overflow-checked sums and
/// must lie inside the box before any of them is read.
package struct MinimizedImage: Sendable, Equatable {
    /// A coded image of the box: its decoder configuration and where its data lies.
    package struct CodedImage: Sendable, Equatable {
        /// The payload of its `hvcC` or `av1C` property (no box header); may be empty.
        package let configuration: [UInt8]
        /// Its coded data, as offsets in the file.
        package let data: Range<Int>
    }

    /// The gain map of an HDR image, with what its `tmap` item would say.
    package struct GainMap: Sendable, Equatable {
        package let image: CodedImage
        package let width: Int
        package let height: Int
        package let chroma: Chroma
        package let bitDepth: Int
        package let matrix: Int
        package let fullRange: Bool
        /// The ISO 21496-1 gain-map metadata (a `tmap` item's body after its version byte).
        package let metadata: [UInt8]
        /// The colour of the tone-mapped (alternate) image.
        package let toneMapNCLX: NCLX?
        package let toneMapICC: [UInt8]?
    }

    /// Chroma subsampling, as the box codes it.
    package enum Chroma: Int, Sendable {
        case monochrome = 0, yuv420, yuv422, yuv444

        /// Channels of a picture in this format: 1 for 4:0:0, else 3.
        package var channels: Int { self == .monochrome ? 1 : 3 }
    }

    /// The item type of the coded images (`hvc1`, `av01`, or what the box names).
    package let itemType: String
    /// The type of their configuration property (`hvcC`, `av1C`, …).
    package let configurationType: String
    package let width: Int
    package let height: Int
    /// Bits per sample (8–16).
    package let bitDepth: Int
    package let chroma: Chroma
    /// The nclx the box gives or implies (sRGB, BT.601 matrix, unless it says otherwise).
    package let colour: NCLX
    package let icc: [UInt8]?
    /// EXIF orientation, 1–8; `transforms` is the same as HEIF properties.
    package let orientation: Int
    package let main: CodedImage
    package let alpha: CodedImage?
    package let alphaPremultiplied: Bool
    package let gainMap: GainMap?
    /// The EXIF as stored: raw, without the 4-byte header offset of a HEIF `Exif` item.
    package let exif: Range<Int>?
    package let xmp: Range<Int>?
    /// EXIF and XMP are deflate-compressed.
    package let metadataCompressed: Bool

    /// The orientation as HEIF transforms: a rotation, then a mirror (the order MIAF
    /// requires), each only when needed.
    package var transforms: [ImageTransform] {
        let steps = orientationSteps
        return [steps.quarterTurns.map { .rotation(quarterTurnsAnticlockwise: $0) }, steps.mirror.map { .mirror($0) }]
            .compactMap { $0 }
    }

    /// EXIF orientation → anticlockwise quarter turns and mirror axis, as libheif expands
    /// it: 5 is a quarter turn clockwise then a left-right mirror, 7 the same then a
    /// top-bottom mirror.
    var orientationSteps: (quarterTurns: Int?, mirror: MirrorAxis?) {
        switch orientation {
        case 2: (nil, .horizontal)
        case 3: (2, nil)
        case 4: (nil, .vertical)
        case 5: (3, .horizontal)
        case 6: (3, nil)
        case 7: (3, .vertical)
        case 8: (1, nil)
        default: (nil, nil)
        }
    }
}

extension MinimizedImage {
    /// The fields never take more bytes than this (1,943 bits, 243 bytes, at their longest).
    static let maxFieldBytes = 1024

    /// Reads the `mini` box whose payload spans `payload` in `source`. `brand` is the
    /// `ftyp` minor version, which names the codec (`heic`, `avif`) unless the box does.
    package static func read(from source: ByteSource, payload: Range<Int>, brand: String) throws(HEIFError) -> MinimizedImage {
        let fields = try MinimizedImageFields.parse(
            try source.containerBytes(at: payload.lowerBound, count: min(payload.count, maxFieldBytes)))
        let (itemType, configurationType) = try codec(fields, brand: brand)
        // The chunks in their order; all must fit before any is read. The fields lie
        // inside the payload (they were read from it), so this sum does not overflow.
        var end = payload.lowerBound + fields.length
        func chunk(_ count: Int) throws(HEIFError) -> Range<Int> {
            let (next, overflow) = end.addingReportingOverflow(count)
            guard !overflow, next <= payload.upperBound else { throw .truncatedBox("mini") }
            defer { end = next }
            return end..<next
        }
        let mainConfiguration = try chunk(fields.mainConfigurationSize)
        let alphaConfiguration = try chunk(fields.alphaConfigurationSize)
        let gainMapConfiguration = try chunk(fields.gainMapConfigurationSize)
        let icc = try chunk(fields.iccSize)
        let toneMapICC = try chunk(fields.toneMapICCSize)
        let gainMapMetadata = try chunk(fields.gainMapMetadataSize)
        let alphaData = try chunk(fields.alphaDataSize)
        let gainMapData = try chunk(fields.gainMapDataSize)
        let mainData = try chunk(fields.mainDataSize)
        let exif = try chunk(fields.exifSize)
        let xmp = try chunk(fields.xmpSize)

        func bytes(_ range: Range<Int>) throws(HEIFError) -> [UInt8] {
            try source.containerBytes(at: range.lowerBound, count: range.count)
        }
        let mainBytes = try bytes(mainConfiguration)
        // An empty configuration chunk means "the main image's".
        func image(configuration: Range<Int>, data: Range<Int>) throws(HEIFError) -> CodedImage {
            CodedImage(configuration: configuration.isEmpty ? mainBytes : try bytes(configuration), data: data)
        }
        var gainMap: GainMap?
        if let g = fields.gainMap, !gainMapData.isEmpty {
            gainMap = GainMap(image: try image(configuration: gainMapConfiguration, data: gainMapData),
                              width: g.width, height: g.height, chroma: Chroma(rawValue: g.chroma) ?? .monochrome,
                              bitDepth: g.bitDepth, matrix: g.matrix, fullRange: g.fullRange,
                              metadata: try bytes(gainMapMetadata), toneMapNCLX: g.toneMapNCLX,
                              toneMapICC: g.toneMapHasICC ? try bytes(toneMapICC) : nil)
        }
        return MinimizedImage(
            itemType: itemType, configurationType: configurationType, width: fields.width, height: fields.height,
            bitDepth: fields.bitDepth, chroma: Chroma(rawValue: fields.chroma) ?? .monochrome, colour: fields.colour,
            icc: fields.hasICC ? try bytes(icc) : nil, orientation: fields.orientation,
            main: CodedImage(configuration: mainBytes, data: mainData),
            alpha: alphaData.isEmpty ? nil : try image(configuration: alphaConfiguration, data: alphaData),
            alphaPremultiplied: fields.alphaPremultiplied, gainMap: gainMap,
            exif: fields.hasEXIF ? exif : nil, xmp: fields.hasXMP ? xmp : nil,
            metadataCompressed: fields.metadataCompressed)
    }

    /// The coded item type and configuration type: the box's own, else the codec the
    /// `ftyp` minor version names.
    private static func codec(_ fields: MinimizedImageFields, brand: String) throws(HEIFError) -> (String, String) {
        if let item = fields.itemType, let configuration = fields.configurationType { return (item, configuration) }
        switch brand {
        case "heic": return ("hvc1", "hvcC")
        case "avif": return ("av01", "av1C")
        default:
            throw .malformedBox("mini", reason: "it names no codec types, and the 'ftyp' minor version '\(brand)' is neither 'heic' nor 'avif'")
        }
    }
}
