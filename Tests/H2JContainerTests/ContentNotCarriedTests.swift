import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// What a JPEG of the primary leaves out: the reason an original is kept.
@Suite("Content a primary's JPEG does not carry")
struct ContentNotCarriedTests {
    typealias B = BoxBuilder

    static func structure(items: [(Int, String)], references: [[UInt8]] = [], properties: [[UInt8]] = [],
                          associations: [(Int, [Int])] = [], extra: [UInt8] = []) throws -> HEIFStructure {
        try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(primary: 1, items: items, references: references,
                                                                        properties: properties, associations: associations) + extra))
    }

    static func auxC(_ urn: String) -> [UInt8] { B.box("auxC", B.fullBox(0) + Array(urn.utf8) + [0]) }

    @Test("One image with a thumbnail, an alpha plane and its grid's tiles: nothing is left out")
    func everythingCarried() throws {
        let structure = try Self.structure(
            items: [(1, "grid"), (2, "hvc1"), (3, "hvc1"), (4, "hvc1"), (5, "hvc1")],
            references: [B.reference("dimg", from: 1, to: [2, 3]), B.reference("thmb", from: 4, to: [1]), B.reference("auxl", from: 5, to: [1])],
            properties: [Self.auxC("urn:mpeg:hevc:2015:auxid:1")], associations: [(5, [1])])
        #expect(structure.contentNotCarried().isEmpty)
    }

    @Test("Other images, a depth map, a gain map, a tmap item and an image sequence are each named")
    func leftOut() throws {
        let structure = try Self.structure(
            items: [(1, "hvc1"), (2, "hvc1"), (3, "hvc1"), (4, "hvc1"), (5, "hvc1"), (6, "tmap")],
            references: [B.reference("auxl", from: 4, to: [1]), B.reference("auxl", from: 5, to: [1])],
            properties: [Self.auxC("urn:mpeg:hevc:2015:auxid:2"), Self.auxC("urn:com:apple:photo:2020:aux:hdrgainmap")],
            associations: [(4, [1]), (5, [2])], extra: B.box("moov", []))
        let missing = structure.contentNotCarried().map(\.phrase)
        #expect(missing == ["2 more images (#2, #3)", "a depth map", "an HDR gain map", "a gain map ('tmap' item)", "an image sequence"],
                "\(missing)")
    }

    @Test("An iPhone 16's portrait, skin and sky mattes are each named as what they are, a second sky matte once")
    func mattes() throws {
        let structure = try Self.structure(
            items: [(1, "hvc1"), (2, "hvc1"), (3, "hvc1"), (4, "hvc1"), (5, "hvc1")],
            references: [B.reference("auxl", from: 2, to: [1]), B.reference("auxl", from: 3, to: [1]), B.reference("auxl", from: 4, to: [1]),
                         B.reference("auxl", from: 5, to: [1])],
            properties: [Self.auxC("urn:com:apple:photo:2020:aux:semanticskymatte"), Self.auxC("urn:com:apple:photo:2019:aux:semanticskinmatte"),
                         Self.auxC("urn:com:apple:photo:2018:aux:portraiteffectsmatte")],
            associations: [(2, [1]), (3, [2]), (4, [3]), (5, [1])])
        #expect(structure.auxiliaryImages(of: 1).map(\.kind) == [.matte(.sky), .matte(.skin), .matte(.portrait), .matte(.sky)])
        #expect(structure.contentNotCarried().map(\.phrase) == ["a portrait matte", "a skin matte", "a sky matte"])
    }

    /// A `grpl` box of entity groups, each (type, id, entities).
    static func groups(_ groups: [(String, Int, [Int])]) -> [UInt8] {
        B.box("grpl", groups.flatMap { type, id, entities in
            B.box(type, B.fullBox(0) + B.u32(id) + B.u32(entities.count) + entities.flatMap { B.u32($0) })
        })
    }

    @Test("MV-HEVC: an 'lhv1' view in an 'ster' group with the primary is named as the view heic2jpg does not decode; never a still image or half of a pair")
    func layeredStereoView() throws {
        let file = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1"), (2, "lhv1")], extraBoxes: [Self.groups([("ster", 3, [1, 2])])])
        let structure = try HEIFStructure.read(from: MemoryByteSource(file))
        #expect(structure.layeredViews() == [2])
        #expect(structure.stillImages() == [1] && structure.stereoPair(among: structure.stillImages()) == nil)
        let parts = structure.contentNotCarried()
        #expect(parts.map(\.phrase) == ["the right view (#2) of a stereo pair, a layered HEVC ('lhv1') image heic2jpg does not decode"])
        #expect(parts.map(\.kind) == [.layeredImages])
        // The same pair with the layered view first: it is the left eye.
        let left = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1"), (2, "lhv1")], extraBoxes: [Self.groups([("ster", 3, [2, 1])])])
        #expect(try HEIFStructure.read(from: MemoryByteSource(left)).contentNotCarried().first?.phrase.hasPrefix("the left view (#2)") == true)
    }

    @Test("SHVC: an 'lhv1' layer that is an alternative ('altr') of its base, a grid's tile or hidden is no view of its own; others are counted")
    func layeredNotViews() throws {
        let alternative = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1"), (2, "lhv1")], extraBoxes: [Self.groups([("altr", 3, [2, 1])])])
        #expect(try HEIFStructure.read(from: MemoryByteSource(alternative)).contentNotCarried().isEmpty)
        let tiles = try Self.structure(items: [(1, "hvc1"), (2, "grid"), (3, "lhv1"), (4, "lhv1")],
                                       references: [B.reference("dimg", from: 2, to: [3, 4])])
        #expect(tiles.layeredViews().isEmpty)
        let hidden = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], extraItems: [B.infe(id: 2, type: "lhv1", hidden: true)])
        #expect(try HEIFStructure.read(from: MemoryByteSource(hidden)).layeredViews().isEmpty)
        let two = try Self.structure(items: [(1, "hvc1"), (5, "lhv1"), (6, "lhv1")])
        #expect(two.contentNotCarried().map(\.phrase) == ["2 layered HEVC ('lhv1') images heic2jpg does not decode (#5, #6)"])
        // A grid of layered tiles is refused by its codec, as AVC is.
        #expect(throws: HEIFError.unsupportedCodec(item: 4, type: "lhv1")) { try tiles.checkCodecs(of: 2) }
    }

    @Test("Still images: the primary first, then the others by ID; hidden items, thumbnails, auxiliary images, tiles and tmap items are not photos of their own; a ster pair is found in its order")
    func stillImages() throws {
        let structure = try Self.structure(
            items: [(1, "grid"), (2, "hvc1"), (3, "hvc1"), (4, "hvc1"), (5, "hvc1"), (6, "tmap"), (9, "av01"), (7, "hvc1"), (8, "avc1")],
            references: [B.reference("dimg", from: 1, to: [2, 3]), B.reference("thmb", from: 4, to: [1]), B.reference("auxl", from: 5, to: [1]),
                         B.reference("dimg", from: 6, to: [1, 5])],
            properties: [Self.auxC("urn:mpeg:hevc:2015:auxid:2")], associations: [(5, [1])])
        #expect(structure.stillImages() == [1, 7, 8, 9])
        #expect(structure.contentNotCarried(converted: [1, 7, 9]).map(\.phrase) == ["1 more image (#8)", "a depth map", "a gain map ('tmap' item)"])
        #expect(structure.stereoPair(among: [1, 7, 8, 9]) == nil)
    }
}
