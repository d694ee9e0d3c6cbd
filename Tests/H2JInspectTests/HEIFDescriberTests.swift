import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JInspect
@testable import H2JSupport

@Suite("inspect: HEIF description")
struct HEIFDescriberTests {
    typealias B = BoxBuilder

    static func auxC(_ urn: String) -> [UInt8] { B.box("auxC", B.fullBox(0) + Array(urn.utf8) + [0]) }

    /// A grid primary (1) of two hidden tiles (2, 3), a thumbnail (4), a depth map (5),
    /// an alpha plane (6) with an unknown URN's sibling (7), a visible tile-like item (8)
    /// and an Exif item (9); the grid descriptor in `idat`.
    static func file() -> [UInt8] {
        let meta = B.meta(
            primary: 1, items: [(1, "grid"), (4, "hvc1"), (5, "hvc1"), (6, "av01"), (7, "hvc1"), (8, "hvc1"), (9, "Exif")],
            references: [B.reference("dimg", from: 1, to: [2, 3]), B.reference("thmb", from: 4, to: [1]),
                         B.reference("auxl", from: 5, to: [1]), B.reference("auxl", from: 6, to: [1]), B.reference("auxl", from: 7, to: [1]),
                         B.reference("dimg", from: 8, to: [2])],
            properties: [B.ispe(width: 1000, height: 500), B.irot(quarterTurns: 3), B.imir(axis: 0),
                         B.ispe(width: 500, height: 500), B.hvcC(chroma: 2), B.ispe(width: 160, height: 80),
                         auxC("urn:mpeg:hevc:2015:auxid:2"), auxC("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"),
                         auxC("urn:example:aux"), B.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false),
                         B.clap(width: (900, 1), height: (400, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))],
            associations: [(1, [1, 11, 2, 3, 10]), (2, [4, 5]), (3, [4, 5]), (4, [6, 2]), (5, [6, 7]), (6, [6, 8]), (7, [6, 9]), (8, [4, 5])],
            extraItems: [B.infe(id: 2, type: "hvc1", hidden: true), B.infe(id: 3, type: "hvc1", hidden: true)],
            extraBoxes: [B.iloc([.init(id: 1, construction: 1, extents: [(0, 0, 8)])]), B.idat(B.grid(rows: 1, columns: 2, width: 1000, height: 500))])
        return B.ftyp + meta
    }

    @Test("Images: hidden tiles left out; grid, thumbnail and auxiliary kinds; transforms and display size")
    func images() throws {
        let properties = try ImageInspection.describe(MemoryByteSource(Self.file()))
        #expect(properties.format == "heif")
        #expect(properties.brands == .init(major: "heic", compatible: ["mif1", "heic"]))
        #expect(properties.images.map(\.id) == [1, 4, 5, 6, 7, 8])
        let grid = try #require(properties.images.first)
        #expect(grid.type == "grid" && grid.isPrimary && grid.tiles == 2 && grid.grid?.columns == 2 && grid.grid?.rows == 1)
        #expect(grid.size == ImageSize(width: 1000, height: 500))
        #expect(grid.displaySize == ImageSize(width: 400, height: 900), "clap 900×400, then a quarter turn")
        let byID = Dictionary(uniqueKeysWithValues: properties.images.compactMap { image in image.id.map { ($0, image) } })
        #expect(byID[4]?.thumbnailOf == 1 && byID[4]?.displaySize == ImageSize(width: 80, height: 160))
        #expect(byID[5]?.auxiliary == .init(kind: "depth", urn: "urn:mpeg:hevc:2015:auxid:2", of: 1))
        #expect(byID[6]?.auxiliary?.kind == "alpha")
        #expect(byID[7]?.auxiliary == .init(kind: "urn:example:aux", urn: "urn:example:aux", of: 1))
        #expect(byID[8]?.hidden == false, "a visible item that is also a grid input is an image of its own")

        let primary = try #require(properties.primary)
        #expect(primary.id == 1 && primary.chroma == "4:2:2", "a grid is coded as its first tile")
        #expect(primary.transforms == ["clap 900x400+50+50", "irot 270", "imir vertical"])
        #expect(primary.rotation == 270 && primary.mirror == .vertical)
        #expect(primary.nclx == NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: false))
        #expect(primary.icc == nil && primary.exifOrientation == nil)
        #expect(properties.metadata == ImageProperties.MetadataSizes())
        #expect(properties.provenance == nil)
    }

    @Test("Auxiliary kinds: one URN table gives inspect's token and the converter's phrase")
    func auxiliaryKinds() {
        let cases: [(String, String, String)] = [
            ("urn:mpeg:hevc:2015:auxid:1", "alpha", "alpha plane"),
            ("urn:mpeg:mpegB:cicp:systems:auxiliary:depth", "depth", "depth map"),
            ("urn:com:apple:photo:2020:aux:hdrgainmap", "hdr-gain-map", "HDR gain map"),
            ("urn:com:apple:photo:2018:aux:portraiteffectsmatte", "portrait-matte", "portrait matte"),
            ("urn:com:apple:photo:2019:aux:semanticskinmatte", "skin-matte", "skin matte"),
            ("urn:com:apple:photo:2019:aux:semantichairmatte", "hair-matte", "hair matte"),
            ("urn:com:apple:photo:2019:aux:semanticteethmatte", "teeth-matte", "teeth matte"),
            ("urn:com:apple:photo:2020:aux:semanticskymatte", "sky-matte", "sky matte"),
            ("urn:com:apple:photo:2020:aux:semanticglassesmatte", "glasses-matte", "glasses matte"),
            ("urn:com:apple:photo:2023:aux:semanticglassesmatte", "glasses-matte", "glasses matte"),
            ("urn:example:segmentationmatte", "matte", "matte"),
            ("urn:example:disparity", "disparity", "disparity map"),
            ("urn:example:thing", "urn:example:thing", "auxiliary image 'urn:example:thing'"),
        ]
        for (urn, token, phrase) in cases {
            #expect(AuxiliaryKind(urn: urn).token == token)
            #expect(AuxiliaryKind(urn: urn).phrase == phrase)
        }
    }

    @Test("A primary that is a thumbnail is described with a warning, not refused")
    func unusableImage() throws {
        let file = B.ftyp + B.meta(primary: 2, items: [(1, "hvc1"), (2, "hvc1")], references: [B.reference("thmb", from: 2, to: [1])],
                                   properties: [B.ispe(width: 64, height: 48)], associations: [(1, [1]), (2, [1])])
        let properties = try ImageInspection.describe(MemoryByteSource(file))
        #expect(properties.primary?.id == 2)
        #expect(properties.warnings.contains { $0.contains("thumbnail") })
    }

    @Test("AVIF by its primary's item type; bit depth and chroma from av1C")
    func avif() throws {
        // av1C byte 2: high_bitdepth (0x40), subsampling x and y (0x0C): 10-bit 4:2:0.
        let av1C = B.box("av1C", [0x81, 0x00, 0x4C, 0x00])
        let file = B.box("ftyp", Array("avif".utf8) + B.u32(0) + Array("avifmif1".utf8))
            + B.meta(primary: 1, items: [(1, "av01")], properties: [av1C, B.ispe(width: 8, height: 8)], associations: [(1, [1, 2])])
        let properties = try ImageInspection.describe(MemoryByteSource(file))
        #expect(properties.format == "avif")
        #expect(properties.primary?.bitDepth == 10 && properties.primary?.chroma == "4:2:0")
    }

    /// A mutated container is either described — a HEIF or AVIF of the mutated size whose
    /// images are listed once each, in ID order, with at most one primary (the primary's
    /// ID) and a display size only where there is a size, rendered as JSON that parses
    /// back to the same values and as text — or refused with an `InspectError` that says
    /// why, whose JSON object is just the file and that reason.
    @Test("Mutated containers are described or refused, never trapped on")
    func robustness() {
        let file = Self.file()
        var generator = SeededGenerator("HEIFDescriberTests/robustness")
        var described = 0, refused = 0
        for iteration in 0..<TestScale.iterations(3000) {
            var mutated = file
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let context = "iteration \(iteration), seed \(generator.seed)"
            let properties: ImageProperties
            do {
                properties = try ImageInspection.describe(MemoryByteSource(mutated))
            } catch {
                refused += 1
                #expect(!error.description.isEmpty, "\(context): an error without a reason")
                let json = InspectOutcome(file: "x", error: error.description).json
                let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
                #expect(object?.keys.sorted() == ["error", "file"] && object?["error"] as? String == error.description, "\(context): \(json)")
                continue
            }
            described += 1
            #expect(["heif", "avif"].contains(properties.format) && properties.byteSize == mutated.count,
                    "\(context): \(properties.format), \(properties.byteSize) bytes")
            let ids = properties.images.map(\.id)
            #expect(ids.allSatisfy { $0 != nil } && zip(ids, ids.dropFirst()).allSatisfy { $0! < $1! }, "\(context): image IDs \(ids)")
            let primaries = properties.images.filter(\.isPrimary)
            #expect(primaries.count <= 1 && primaries.allSatisfy { $0.id == properties.primary?.id },
                    "\(context): primaries \(primaries.map(\.id)), primary item \(String(describing: properties.primary?.id))")
            #expect(properties.images.allSatisfy { $0.displaySize == nil || $0.size != nil }, "\(context): a display size without a size")
            let outcome = InspectOutcome(file: "x", properties: properties)
            let object = (try? JSONSerialization.jsonObject(with: Data(outcome.json.utf8))) as? [String: Any]
            #expect(object?["file"] as? String == "x" && object?["format"] as? String == properties.format
                    && object?["bytes"] as? Int == mutated.count && (object?["images"] as? [Any])?.count == properties.images.count,
                    "\(context): \(outcome.json.prefix(400))")
            #expect(outcome.text.hasPrefix("x\n"), "\(context): \(outcome.text.prefix(200))")
        }
        // The mutations reach both outcomes.
        #expect(described > 0 && refused > 0, "\(described) described, \(refused) refused, seed \(generator.seed)")
    }
}
