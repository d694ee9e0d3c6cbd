import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

@Suite("Low-overhead 'mini' files, read and translated to an ordinary HEIF")
struct MinimizedImageTests {
    typealias B = BoxBuilder

    /// The `mini` box of `builder`'s file, read as the converter reads it.
    func image(_ builder: MiniBoxBuilder) throws(HEIFError) -> MinimizedImage {
        let file = builder.file
        return try MinimizedImage.read(from: MemoryByteSource(file), payload: 24..<(16 + 8 + builder.payload.count),
                                       brand: builder.brand)
    }

    /// The file as the ordinary HEIF it stands for, and that HEIF's structure.
    func translated(_ builder: MiniBoxBuilder) throws -> (source: ByteSource, structure: HEIFStructure) {
        let source = try #require(try MinimizedImage.translating(MemoryByteSource(builder.file)))
        return (source, try HEIFStructure.read(from: source))
    }

    /// Everything a `mini` box can hold besides a gain map, in a file with a trailer.
    static var rich: MiniBoxBuilder {
        var b = MiniBoxBuilder()
        b.width = 300
        b.height = 200
        b.bitDepth = 10
        b.chroma = 3
        b.orientation = 6
        b.cicp = (9, 16, 9)
        b.fullRange = false
        b.alphaData = Array(repeating: 0xAA, count: 12)
        b.alphaConfiguration = [0x81, 0x00, 0x1C, 0x00]
        b.alphaPremultiplied = true
        b.icc = Array(repeating: 0x1C, count: 1500)
        b.exif = Array("MM\0*".utf8) + [0, 0, 0, 8, 0, 0]
        b.xmp = Array("<x:xmpmeta/>".utf8)
        b.trailer = B.box("free", [1, 2, 3])
        return b
    }

    @Test("A minimal AV1 box: size, format, codec, default colour, the data's place in the file")
    func minimal() throws {
        let builder = MiniBoxBuilder()
        let image = try image(builder)
        #expect(image.itemType == "av01" && image.configurationType == "av1C")
        #expect(image.width == 32 && image.height == 32 && image.bitDepth == 8 && image.chroma == .yuv420)
        #expect(image.colour == NCLX(primaries: 1, transfer: 13, matrix: 6, fullRange: true))
        #expect(image.main.configuration == [0x81, 0x00, 0x0C, 0x00])
        let file = builder.file
        #expect(Array(file[image.main.data]) == builder.mainData)
        #expect(image.main.data.upperBound == file.count)
        #expect(image.alpha == nil && image.icc == nil && image.exif == nil && image.xmp == nil && image.gainMap == nil)
        #expect(image.transforms.isEmpty)
    }

    @Test("Every field of a rich box is read: alpha with its own configuration, ICC, EXIF, XMP, orientation, CICP, 10 bits")
    func rich() throws {
        let builder = Self.rich
        let image = try image(builder)
        let file = builder.file
        #expect(image.width == 300 && image.height == 200 && image.bitDepth == 10 && image.chroma == .yuv444)
        #expect(image.colour == NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: false))
        #expect(image.icc == builder.icc)
        #expect(image.alpha?.configuration == builder.alphaConfiguration && image.alphaPremultiplied)
        #expect(image.alpha.map { Array(file[$0.data]) } == builder.alphaData)
        #expect(Array(file[image.main.data]) == builder.mainData)
        #expect(image.exif.map { Array(file[$0]) } == builder.exif)
        #expect(image.xmp.map { Array(file[$0]) } == builder.xmp)
        #expect(image.orientation == 6 && image.transforms == [.rotation(quarterTurnsAnticlockwise: 3)])
    }

    @Test("The translation is an ordinary HEIF: items, references, properties and data as the expansion defines")
    func translation() throws {
        let builder = Self.rich
        let (source, s) = try translated(builder)
        #expect(s.brands == ["avif", "avif", "mif1"])
        #expect(s.primaryID == 1)
        #expect(s.items.mapValues(\.type) == [1: "av01", 2: "av01", 6: "Exif", 7: "mime"])
        #expect(s.items[2]?.hidden == true && s.items[7]?.contentType == "application/rdf+xml")
        #expect(s.referenced(from: 2, type: "auxl") == [1] && s.referenced(from: 1, type: "prem") == [2])
        #expect(s.referenced(from: 6, type: "cdsc") == [1] && s.referenced(from: 7, type: "cdsc") == [1])
        #expect(s.imageSize(of: 1) == ImageSize(width: 300, height: 200) && s.imageSize(of: 2) == ImageSize(width: 300, height: 200))
        #expect(s.bitDepths(of: 1) == [10, 10, 10] && s.bitDepths(of: 2) == [10])
        #expect(s.colour(of: 1) == ColourInformation(nclx: NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: false), icc: builder.icc))
        #expect(s.properties(of: 1, type: "av1C").first?.payload == builder.mainConfiguration)
        #expect(s.properties(of: 2, type: "av1C").first?.payload == builder.alphaConfiguration)
        #expect(s.auxiliaryType(of: 2).map(AuxiliaryKind.init(urn:)) == .alpha)
        #expect(try s.transforms(of: 1) == [.rotation(quarterTurnsAnticlockwise: 3)])
        #expect(try s.transforms(of: 2) == [.rotation(quarterTurnsAnticlockwise: 3)])
        #expect(s.essentialPropertyTypes(of: 1) == ["av1C", "irot"])
        #expect(try s.itemData(1, from: source, maxBytes: 1 << 20) == builder.mainData)
        #expect(try s.itemData(2, from: source, maxBytes: 1 << 20) == builder.alphaData)
        // HEIF's Exif item puts the TIFF header offset first; mini stores the EXIF raw.
        #expect(try s.itemData(6, from: source, maxBytes: 1 << 20) == [0, 0, 0, 0] + (builder.exif ?? []))
        let metadata = try SourceMetadata(storedIn: s, primary: 1, source: source)
        #expect(metadata.xmp == builder.xmp && metadata.icc == builder.icc)
        #expect(try s.primaryImage() == ImageItem(id: 1, itemType: "av01", isMonochrome: false))
        try s.checkItemsInFile(size: source.size)
        try s.checkDerivation(from: source, maxPixels: 1 << 20)
        // Alpha is flattened and metadata grafted; the PQ primary's HDR rendition is content
        // of its own, which only an Ultra HDR output carries.
        #expect(s.contentNotCarried().map(\.kind) == [.hdrRendition])
        #expect(s.contentNotCarried(hdrCarried: true).isEmpty)
        // The file's own boxes are hidden in an `mdat`; what follows the `mini` box stays a top-level box.
        #expect(s.bytesAfterLastBox == nil)
    }

    @Test("An HEVC box becomes hvc1/hvcC under the 'heic' brand; 4:0:0 has one channel")
    func hevc() throws {
        var builder = MiniBoxBuilder()
        builder.brand = "heic"
        builder.chroma = 0
        builder.mainConfiguration = Array(1...30)
        let (_, s) = try translated(builder)
        #expect(s.brands == ["heic", "heic", "mif1"])
        #expect(s.items[1]?.type == "hvc1" && s.properties(of: 1, type: "hvcC").first?.payload == Array(1...30))
        #expect(try s.bitDepths(of: 1) == [8] && s.primaryImage().isMonochrome)
        #expect(s.colour(of: 1).nclx == NCLX(primaries: 1, transfer: 13, matrix: 2, fullRange: true))
    }

    @Test("An alpha plane without a configuration of its own shares the image's; an empty one gives no property")
    func sharedConfiguration() throws {
        var builder = MiniBoxBuilder()
        builder.alphaData = [1, 2, 3]
        let (_, s) = try translated(builder)
        #expect(s.properties(of: 2, type: "av1C").first?.payload == builder.mainConfiguration)
        #expect(s.propertyIndex(of: 1, type: "av1C") == s.propertyIndex(of: 2, type: "av1C"), "stored once")
        builder.mainConfiguration = []
        let (_, bare) = try translated(builder)
        #expect(bare.properties(of: 1, type: "av1C").isEmpty && bare.properties(of: 2, type: "av1C").isEmpty)
    }

    @Test("With explicit CICP, matrix_coefficients is read even for 4:0:0 (the current draft, as libheif reads it)")
    func monochromeCICP() throws {
        var builder = MiniBoxBuilder()
        builder.chroma = 0
        builder.cicp = (1, 8, 0)
        builder.exif = [1, 2, 3]
        let image = try image(builder)
        #expect(image.colour == NCLX(primaries: 1, transfer: 8, matrix: 0, fullRange: true))
        #expect(image.exif.map { Array(builder.file[$0]) } == [1, 2, 3], "later fields land where the builder put them")
    }

    @Test("Orientations 1–8 become irot then imir, as libheif expands them", arguments: [
        (1, [ImageTransform]()), (2, [.mirror(.horizontal)]), (3, [.rotation(quarterTurnsAnticlockwise: 2)]),
        (4, [.mirror(.vertical)]), (5, [.rotation(quarterTurnsAnticlockwise: 3), .mirror(.horizontal)]),
        (6, [.rotation(quarterTurnsAnticlockwise: 3)]), (7, [.rotation(quarterTurnsAnticlockwise: 3), .mirror(.vertical)]),
        (8, [.rotation(quarterTurnsAnticlockwise: 1)]),
    ])
    func orientations(orientation: Int, expected: [ImageTransform]) throws {
        var builder = MiniBoxBuilder()
        builder.orientation = orientation
        builder.width = 40
        let (_, s) = try translated(builder)
        #expect(try s.transforms(of: 1) == expected)
        // Every orientation shows the picture upright as EXIF would: 5–8 swap the sides.
        let geometry = try PlaneGeometry(canvasWidth: 40, canvasHeight: 32, transforms: expected)
        #expect((geometry.width, geometry.height) == (orientation >= 5 ? (32, 40) : (40, 32)))
    }

    @Test("A gain map becomes a 'tmap' item with its gain-map image, an 'altr' group and the 'tmap' brand; HDR properties are skipped")
    func gainMap() throws {
        var builder = MiniBoxBuilder()
        builder.gainMap = MiniBoxBuilder.GainMap()
        builder.gainMap?.width = 16
        builder.gainMap?.height = 16
        builder.xmp = Array("<xmp/>".utf8)
        let image = try image(builder)
        #expect(image.gainMap?.width == 16 && image.gainMap?.chroma == .monochrome && image.gainMap?.metadata == [0, 1, 2, 3])
        #expect(image.gainMap?.image.configuration == builder.mainConfiguration)
        let (source, s) = try translated(builder)
        #expect(s.brands.contains("tmap"))
        #expect(s.items[3]?.type == "tmap" && s.items[4]?.hidden == true)
        #expect(s.referenced(from: 3, type: "dimg") == [1, 4])
        #expect(s.entityGroups == [EntityGroup(type: "altr", id: 8, entities: [3, 1])])
        #expect(try s.itemData(3, from: source, maxBytes: 64) == [0, 0, 1, 2, 3])
        #expect(try s.itemData(4, from: source, maxBytes: 64) == builder.gainMap?.data)
        #expect(try s.itemData(7, from: source, maxBytes: 64) == builder.xmp)
        #expect(s.contentNotCarried().map(\.phrase) == ["a gain map ('tmap' item)"])
    }

    @Test("EXIF that starts with 'Exif\\0\\0' gets header offset 6")
    func exifSignature() throws {
        var builder = MiniBoxBuilder()
        builder.exif = Array("Exif\0\0II*\0".utf8)
        let (source, s) = try translated(builder)
        #expect(try s.itemData(6, from: source, maxBytes: 64) == [0, 0, 0, 6] + (builder.exif ?? []))
    }

    @Test("Explicit codec types are used as given: an AVC box is then refused by name")
    func explicitTypes() throws {
        var builder = MiniBoxBuilder()
        builder.brand = "mif1"
        builder.codecTypes = ("avc1", "avcC")
        let (_, s) = try translated(builder)
        #expect(s.items[1]?.type == "avc1" && s.brands.first == "mif1")
        #expect(throws: HEIFError.unsupportedCodec(item: 1, type: "avc1")) { try s.checkCodecs() }
    }

    @Test("Boxes that cannot be read are refused, each naming the cause")
    func refusals() {
        var truncated = MiniBoxBuilder()
        truncated.exif = [1, 2, 3]
        // Chunks past the end of a whole box, and a box past the end of the file.
        let short = truncated.ftyp + B.box("mini", Array(truncated.payload.dropLast()))
        #expect(throws: HEIFError.truncatedBox("mini")) { try MinimizedImage.translating(MemoryByteSource(short)) }
        #expect(throws: HEIFError.truncatedBox("mini")) { try MinimizedImage.translating(MemoryByteSource(Array(truncated.file.dropLast()))) }

        var version = MiniBoxBuilder()
        version.version = 1
        #expect(throws: HEIFError.malformedBox("mini", reason: "version 1; only version 0 is defined")) { try image(version) }
        var brand = MiniBoxBuilder()
        brand.brand = "mif1"
        #expect(throws: HEIFError.self) { try image(brand) }
        var float = MiniBoxBuilder()
        float.float = true
        #expect(throws: HEIFError.unsupportedItemData(item: 1, reason: "its samples are floating-point ('mini' float_flag)")) { try image(float) }
        var compressed = MiniBoxBuilder()
        compressed.xmp = [1]
        compressed.metadataCompressed = true
        #expect(throws: HEIFError.self) { try MinimizedImage.translating(MemoryByteSource(compressed.file)) }
        var both = MiniBoxBuilder()
        both.trailer = B.meta(primary: 1, items: [(1, "av01")])
        #expect(throws: HEIFError.malformedBox("mini", reason: "the file also has a 'meta' box")) {
            try MinimizedImage.translating(MemoryByteSource(both.file))
        }
    }

    @Test("Other files are not translated")
    func notMini() throws {
        let heif = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")])
        #expect(try MinimizedImage.translating(MemoryByteSource(heif)) == nil)
        #expect(try MinimizedImage.translating(MemoryByteSource([0xFF, 0xD8, 0xFF, 0xE0])) == nil)
        #expect(try MinimizedImage.translating(MemoryByteSource([])) == nil)
        // `mif3` without a `mini` box after `ftyp`, and a `mini` box without `mif3`.
        let builder = MiniBoxBuilder()
        #expect(try MinimizedImage.translating(MemoryByteSource(builder.ftyp + B.box("free", []) + B.box("mini", builder.payload))) == nil)
        #expect(try MinimizedImage.translating(MemoryByteSource(B.box("ftyp", Array("isomavif".utf8)) + B.box("mini", builder.payload))) == nil)
    }

    @Test("A spliced source reads its head, its tail and across the seam, and refuses ranges outside")
    func splicedSource() throws {
        let source = SplicedByteSource(head: [1, 2, 3], tail: MemoryByteSource([4, 5, 6, 7]))
        #expect(source.size == 7)
        #expect(try source.read(at: 0, count: 2) == [1, 2])
        #expect(try source.read(at: 2, count: 3) == [3, 4, 5])
        #expect(try source.read(at: 3, count: 4) == [4, 5, 6, 7])
        #expect(try source.read(at: 7, count: 0) == [])
        #expect(throws: ReadError.outOfRange(offset: 5, count: 3, size: 7)) { try source.read(at: 5, count: 3) }
        #expect(throws: ReadError.self) { try source.read(at: -1, count: 1) }
        #expect(throws: ReadError.self) { try source.read(at: Int.max, count: Int.max) }
        // A tail too large to follow the head: the size saturates, reads near it are refused.
        struct Endless: ByteSource {
            var size: Int { Int.max }
            func read(at offset: Int, count: Int) throws(ReadError) -> [UInt8] { [UInt8](repeating: 0, count: count) }
        }
        let endless = SplicedByteSource(head: [1, 2], tail: Endless())
        #expect(endless.size == Int.max)
        #expect(try endless.read(at: 1, count: 2) == [2, 0])
        #expect(throws: ReadError.self) { try endless.read(at: Int.max - 1, count: 2) }
    }

    @Test("No mutation of a valid mini file makes the translation, or the readers after it, trap")
    func mutations() {
        var valid = Self.rich
        valid.gainMap = MiniBoxBuilder.GainMap()
        let file = valid.file
        var generator = SeededGenerator("MinimizedImageTests/mutations")
        var translated = 0, parsed = 0
        for _ in 0..<TestScale.iterations(20_000) {
            var bytes = file
            for _ in 0...Int.random(in: 0...3, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:  // a bit flip in the fields, where most of the syntax is
                    let at = Int.random(in: 24..<min(bytes.count, 64), using: &generator)
                    bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                case 1: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                case 2: bytes.removeLast(Int.random(in: 0...min(bytes.count - 1, 200), using: &generator))
                default:  // a box size
                    let at = [0, 16, file.count - valid.trailer.count].randomElement(using: &generator) ?? 0
                    guard at + 4 <= bytes.count else { continue }
                    bytes.replaceSubrange(at..<(at + 4), with: B.u32([0, 1, 8, 0x7FFF_FFFF, 0xFFFF_FFFF].randomElement(using: &generator) ?? 0))
                }
            }
            guard let source = try? MinimizedImage.translating(MemoryByteSource(bytes)) else { continue }
            translated += 1
            guard let s = try? HEIFStructure.read(from: source) else { continue }
            parsed += 1
            _ = try? s.primaryImage()
            _ = try? s.checkItemsInFile(size: source.size)
            _ = try? s.checkDerivation(from: source, maxPixels: 1 << 24)
            for id in s.items.keys {
                _ = try? s.itemData(id, from: source, maxBytes: 1 << 16)
                _ = (try? s.transforms(of: id), s.colour(of: id), s.bitDepths(of: id), s.imageSize(of: id))
            }
            _ = try? SourceMetadata(storedIn: s, primary: s.primaryID, source: source)
        }
        #expect(translated > 0 && parsed > 0, "some mutations leave a readable file (seed \(generator.seed))")
    }
}
