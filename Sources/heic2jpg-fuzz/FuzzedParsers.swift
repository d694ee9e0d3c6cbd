import H2JColour
import H2JCompose
import H2JContainer
import H2JInspect
import H2JJPEG
import H2JMetadata
import H2JSupport
import H2JTiles
import H2JUncompressed

/// The fuzzing entry: every parser of untrusted file bytes, fed the same input.
///
/// libFuzzer (`LibFuzzer`) and the replay mode (`Replay`) both call `run`, so a crash
/// file replays through exactly the code that found it. Results are discarded: the only
/// failure is a trap (or a sanitizer report), and parsers must have none.
/// Add a call here for each new parser of file bytes.
enum FuzzedParsers {
    /// A plausible output size for the metadata editors (a 12 MP photo).
    static let width = 4032, height = 3024
    /// The XMP editor is a linear scan for a few property names, so a longer packet adds
    /// time, not coverage: under trace-cmp instrumentation it costs about 0.4 µs a byte,
    /// and 4 KB still took half of the run. Its size check is left to XMPForJPEGTests.
    static let xmpBytes = 1 << 10
    /// A provenance ID as `ProvenanceMark.imageUniqueID` makes them.
    static let imageUniqueID = "00112233445566778899AABBCCDDEEFF"

    /// Properties the XMP editor inserts into a fuzzed packet: a provenance mark (which
    /// first removes the packet's own `h2j:` properties and their Descriptions) and one
    /// of each value form, with text taken from the input (escaping, character
    /// references for non-UTF-8 packets). Moving to Extended XMP needs packets over
    /// 64 KB; XMPFuzzTests covers it with a small limit.
    static func xmpProperties(_ input: [UInt8]) -> [XMPProperty] {
        let text = String(decoding: input.prefix(48), as: UTF8.self)
        return ProvenanceMark(sourceName: text, sourceSHA256: String(repeating: "0", count: 64), mode: .keep, quality: 90, version: "fuzz").xmpProperties
            + [XMPProperty(.exif, "UserComment", .languageAlternative(text)), XMPProperty(.dc, "creator", .orderedArray([text, "<&>"]))]
    }

    static func run(_ input: [UInt8]) {
        // A file name is untrusted bytes too: its string must give back exactly its bytes.
        let name = Array(input.prefix(255))
        precondition(PathBytes.bytes(PathBytes.string(name)) == name, "PathBytes lost a name's bytes")
        let format = ImageFormat.sniff(Array(input.prefix(ImageFormat.sniffLength)))
        _ = format.description  // quotes a brand from the file
        // A `mini` file is read as the HEIF it stands for: its fields, chunks and the
        // synthesized header go through every parser below, as they do when converting.
        let source = (try? MinimizedImage.translating(MemoryByteSource(input))) ?? MemoryByteSource(input)
        do {
            let structure = try HEIFStructure.read(from: source)
            items(structure, source)
            _ = structure.toneMappedImage(from: source)  // reads and parses the tmap item's body
            standalone(structure, source)
            compositions(structure, source)
            _ = HEIFStructure.contentNotConvertedWarning(structure.contentNotCarried().map(\.phrase))
            _ = structure.hdrTransferName()
            let primary = try structure.primaryImage()
            // The capability check reads the grid descriptor, every hvcC and SPS head,
            // transforms and colour, and composes the geometry.
            _ = try EngineChoice.make(structure, image: primary, source: source)
        } catch {
            _ = error.description  // quotes box types from the file
        }
        // The input also stands in for the boxes of an uncompressed image,
        _ = try? UncompressedFormat(uncC: input, cmpd: Array(input.dropFirst(input.count / 2)))
        _ = try? GenericCompression(cmpC: input, icef: input)
        // for a `tmap` item's body (ISO 21496-1 gain-map metadata),
        _ = GainMapMetadata.parse(input)
        // an Apple gain map's XMP and the primary's EXIF with its maker note,
        _ = AppleHDRHeadroom.headroom(gainMapXMP: input, primaryEXIF: input)
        // a Samsung or Adobe gain map's hdrgm XMP,
        _ = AdobeGainMapXMP.read(input)
        // and for the payload of an `Exif` item and of an XMP item.
        // The first byte picks whether the GPS removal (`--strip-gps`) runs as well, and
        // whether properties are inserted into the packet; a limit below the input's size
        // sends the EXIF down the compaction ladder (repack, thumbnail, user fields to XMP,
        // maker note) before the ImageUniqueID append-IFD edit.
        let stripGPS = input.first.map { $0 & 1 == 1 } ?? false
        let adding = (input.first ?? 0) & 2 == 2 ? xmpProperties(input) : []
        _ = EXIFForJPEG.make(fromHEIFExifItem: input, width: width, height: height, stripGPS: stripGPS,
                             imageUniqueID: imageUniqueID)
        _ = EXIFForJPEG.make(fromHEIFExifItem: input, width: width, height: height, stripGPS: stripGPS,
                             imageUniqueID: imageUniqueID, requiredFields: true, tiffLimit: input.count / 2)
        switch format {
        case .heif, .isoMedia:
            // Boxes, not a packet: scanning them as XMP took 80% of the time, for nothing.
            break
        default:
            let packet = Array(input.prefix(xmpBytes))
            _ = XMPForJPEG.make(packet: packet, width: width, height: height, stripGPS: stripGPS, adding: adding)
            _ = ProvenanceMark(xmp: packet)
        }
        inspect(input)
        listings(input)
    }

    /// `compare --html`'s tag table: the input as an XMP packet, an ICC profile and an
    /// EXIF block, each listed tag by tag.
    static func listings(_ input: [UInt8]) {
        _ = XMPListing.tags(Array(input.prefix(xmpBytes)))
        _ = ICCListing.tags(input)
        if let exif = try? EXIFDirectory(tiff: input) { _ = EXIFListing.tags(exif) }
    }

    /// `heic2jpg inspect`: the HEIF or JPEG describer with everything it reads (the JPEG
    /// header walk that the marker filter and `compare` share, frame header, APP segments,
    /// ICC chunks, EXIF summary, XMP mark), both renderings; and the input as an ICC profile.
    static func inspect(_ input: [UInt8]) {
        _ = ICCProfileInfo(profile: input)
        if let properties = try? ImageInspection.describe(MemoryByteSource(input)) {
            let outcome = InspectOutcome(file: "fuzz", properties: properties)
            _ = outcome.text
            _ = outcome.json
        }
    }

    /// An uncompressed image's layout and, when small, its whole decode; its "compressed"
    /// units are taken as they are (the decompressors are C libraries this target does
    /// not link), so every layout reads fuzzed bytes.
    static func uncompressed(_ structure: HEIFStructure, _ id: UInt32, _ data: [UInt8]) {
        guard let image = try? UncompressedImage(structure, item: id) else { return }
        let (pixels, overflow) = image.width.multipliedReportingOverflow(by: image.height)
        guard !overflow, pixels <= 1 << 16 else { return }
        _ = try? image.decode(data, decompress: { _, units, maxBytes in Array(units.prefix(maxBytes)) },
                              nclx: structure.colour(of: id).nclx, background: .white)
    }

    /// Every derived image heic2jpg composes (overlays, `iden`s, grids of derived tiles):
    /// planned from the container as the converter plans it, its coded inputs taken at
    /// their `ispe` size, and, when small, painted band by band over blank inputs.
    static func compositions(_ structure: HEIFStructure, _ source: ByteSource) {
        for item in structure.items.values where structure.isComposed(item.id) {
            guard let composition = try? CompositionPlan.make(structure, item: item.id, source: source, background: .white,
                                                              maxPixels: 1 << 22, pictureSize: { id in
                guard let size = structure.imageSize(of: id) else { throw HEIFError.missingBox("ispe") }
                return (size.width, size.height)
            }) else { continue }
            let small = ([(composition.width, composition.height)] + composition.pictures.map { ($0.width, $0.height) }).allSatisfy {
                let (pixels, overflow) = $0.0.multipliedReportingOverflow(by: $0.1)
                return !overflow && pixels <= 1 << 14
            }
            guard small else { continue }
            let inputs = composition.pictures.compactMap { picture -> Composition.Input? in
                guard let pixels = Raster(width: picture.width, height: picture.height, components: 3),
                      let alpha = Raster(width: picture.width, height: picture.height, components: 1) else { return nil }
                return Composition.Input(pixels: pixels, alpha: alpha)
            }
            guard inputs.count == composition.pictures.count else { continue }
            composition.forEachBand(inputs, components: composition.components(pictureComponents: inputs.map { _ in 3 })) { _, _, _ in }
        }
    }

    /// A gain map shown as an HEIF of its own, as the converter decodes it: the `tmap`
    /// item's second input (or, in a file without one, the primary), its header
    /// synthesized and read back, and checked as the primary.
    static func standalone(_ structure: HEIFStructure, _ source: ByteSource) {
        let gainMap = structure.items.values.filter { $0.type == "tmap" }.map { structure.referenced(from: $0.id, type: "dimg") }
            .first { $0.count > 1 }?[1] ?? structure.primaryID
        guard let isolated = try? structure.standaloneImage(gainMap, in: source),
              let shown = try? HEIFStructure.read(from: isolated) else { return }
        _ = try? shown.primaryImage()
        try? shown.checkItemsInFile(size: isolated.size)
        try? shown.checkDerivation(from: isolated, maxPixels: 256_000_000)
    }

    /// Every item's data and properties, as the engines would read them; `Exif` and XMP
    /// items also go through their editors.
    static func items(_ structure: HEIFStructure, _ source: ByteSource) {
        try? structure.checkItemsInFile(size: source.size)
        try? structure.checkDerivation(from: source, maxPixels: 256_000_000)
        for item in structure.items.values {
            _ = structure.imageSize(of: item.id)
            _ = try? structure.transforms(of: item.id).map { transform in
                if case .cleanAperture(let aperture) = transform { _ = aperture.cropRect(imageWidth: width, imageHeight: height) }
            }
            _ = structure.colour(of: item.id)
            _ = structure.bitDepths(of: item.id)
            _ = structure.auxiliaryType(of: item.id)
            var configuration: HEVCConfiguration?
            for property in structure.properties(of: item.id, type: "hvcC") {
                configuration = try? HEVCConfiguration.parse(property.payload)
                configuration?.parameterSets.forEach { _ = HEVCSequenceParameters.parse(nal: $0) }
            }
            guard let data = try? structure.itemData(item.id, from: source, maxBytes: 1 << 20) else { continue }
            switch item.type {
            case "hvc1": if let configuration { FuzzedTileDecoder.decode(configuration, data) }
            case "grid": _ = try? ImageGrid.parse(data)
            case "iovl": _ = try? ImageOverlay.parse(data, layers: structure.referenced(from: item.id, type: "dimg").count)
            case "unci": uncompressed(structure, item.id, data)
            case "jpeg":
                // The codestream's header, and the lossless graft of segments into it.
                if let codestream = JPEGSegments(data) {
                    _ = codestream.frameHeader
                    _ = JPEGMarkerFilter.grafting([0xFF, 0xFE, 0, 3, 0], into: codestream, strip: data.count % 2 == 0)
                }
            case "Exif": _ = EXIFForJPEG.make(fromHEIFExifItem: data, width: width, height: height, stripGPS: true,
                                              imageUniqueID: imageUniqueID, tiffLimit: data.count / 2)
            case "mime": _ = XMPForJPEG.make(packet: Array(data.prefix(xmpBytes)), width: width, height: height, stripGPS: true, adding: xmpProperties(data))
            default: break
            }
        }
    }
}
