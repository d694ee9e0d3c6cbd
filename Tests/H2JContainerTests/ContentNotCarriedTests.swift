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
