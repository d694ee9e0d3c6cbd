import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// The transforms a gain map takes from the primary (`inheritedTransforms`), the `clap`
/// scaled to its size (`CleanAperture.scaled`), and how a standalone gain map carries them.
@Suite("A gain map's transforms: its own, else the primary's")
struct GainMapTransformsTests {
    typealias B = BoxBuilder

    /// Primary item 1 (`primarySize`, `primary` property boxes after its `ispe`) and its
    /// gain map, auxiliary item 2 (`mapSize`, or no `ispe` when nil; `map` boxes after
    /// it), each with four bytes in `idat`.
    static func structure(primarySize: (Int, Int) = (192, 128), primary: [[UInt8]], mapSize: (Int, Int)? = (96, 64),
                          map: [[UInt8]] = []) throws -> (HEIFStructure, ByteSource) {
        let mapBox = mapSize.map { B.ispe(width: $0.0, height: $0.1) } ?? B.box("free", [])
        let properties = [B.ispe(width: primarySize.0, height: primarySize.1), mapBox,
                          B.box("auxC", B.fullBox(0) + Array("urn:com:samsung:photo:2024:aux:hdrgainmap\0".utf8))] + primary + map
        let primaryTransforms = primary.indices.map { 0x80 | (4 + $0) }
        let mapTransforms = map.indices.map { 0x80 | (4 + primary.count + $0) }
        let locations = [B.Location(id: 1, construction: 1, extents: [(0, 0, 4)]), B.Location(id: 2, construction: 1, extents: [(0, 4, 4)])]
        let meta = B.meta(primary: 1, items: [(1, "hvc1"), (2, "hvc1")], references: [B.reference("auxl", from: 2, to: [1])],
                          properties: properties, associations: [(1, [1] + primaryTransforms), (2, [2, 0x83] + mapTransforms)],
                          extraBoxes: [B.iloc(locations), B.idat([1, 2, 3, 4, 5, 6, 7, 8])])
        let file = MemoryByteSource(B.box("ftyp", Array("heic".utf8) + B.u32(0) + Array("mif1heic".utf8)) + meta)
        return (try HEIFStructure.read(from: file), file)
    }

    /// The transforms gain map item 2 of `structure(…)` takes.
    static func inherited(primarySize: (Int, Int) = (192, 128), primary: [[UInt8]], mapSize: (Int, Int)? = (96, 64),
                          map: [[UInt8]] = []) throws -> [ImageTransform] {
        try structure(primarySize: primarySize, primary: primary, mapSize: mapSize, map: map).0.inheritedTransforms(ofGainMap: 2)
    }

    /// The eight orientations EXIF names, as `irot` (with 0 as none) and an optional `imir`.
    static let orientations: [(quarterTurns: Int, mirror: Int?)] = [0, 1, 2, 3].flatMap { [($0, nil), ($0, 1)] }

    @Test("A gain map with no transforms takes the primary's irot and imir, in their order, in each of the eight orientations", arguments: 0..<8)
    func inheritsOrientation(_ index: Int) throws {
        let (turns, axis) = Self.orientations[index]
        let boxes = (turns == 0 ? [] : [B.irot(quarterTurns: turns)]) + (axis.map { [B.imir(axis: $0)] } ?? [])
        let (structure, _) = try Self.structure(primary: boxes)
        #expect(try structure.inheritedTransforms(ofGainMap: 2) == structure.transforms(of: 1))
    }

    @Test("A gain map with any transform of its own (an iPhone's irot, even irot 0) keeps its own and takes nothing; a primary without transforms gives none")
    func ownTransformsKept() throws {
        let turned = [B.irot(quarterTurns: 1), B.imir(axis: 0)]
        #expect(try Self.inherited(primary: turned, map: turned) == [])
        #expect(try Self.inherited(primary: turned, map: [B.irot(quarterTurns: 0)]) == [])
        #expect(try Self.inherited(primary: [B.imir(axis: 1)], map: [B.imir(axis: 0)]) == [])
        #expect(try Self.inherited(primary: []) == [])
    }

    @Test("A gain map already turned (its shape the primary's turned a quarter) takes no quarter turn; a square primary's map always takes it")
    func alreadyTurned() throws {
        #expect(try Self.inherited(primary: [B.irot(quarterTurns: 1)], mapSize: (64, 96)) == [])
        #expect(try Self.inherited(primary: [B.irot(quarterTurns: 2)], mapSize: (64, 96)) == [.rotation(quarterTurnsAnticlockwise: 2)])
        #expect(try Self.inherited(primarySize: (128, 128), primary: [B.irot(quarterTurns: 3)], mapSize: (64, 64))
                == [.rotation(quarterTurnsAnticlockwise: 3)])
    }

    @Test("The primary's clap is scaled to the gain map, in its place among the transforms: a crop after a quarter turn scales with the turned sizes")
    func clapScaled() throws {
        // 192×128, centred 160×112 → 96×64: 80×56 at (8, 4).
        let centred = B.clap(width: (160, 1), height: (112, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))
        let inherited = try Self.inherited(primary: [centred, B.irot(quarterTurns: 1)])
        guard case .cleanAperture(let clap)? = inherited.first else { Issue.record("\(inherited)"); return }
        #expect(clap.cropRect(imageWidth: 96, imageHeight: 64)! == (8, 4, 80, 56))
        #expect(inherited.dropFirst() == [.rotation(quarterTurnsAnticlockwise: 1)])
        // Turned first, the primary is 128×192 and the map 64×96 when the crop applies: 100×150 at (13, 21) → 50×75 at (7, 11).
        let offCentre = B.clap(width: (100, 1), height: (150, 1), horizontalOffset: (-1, 1), verticalOffset: (0, 1))
        let (structure, _) = try Self.structure(primary: [B.irot(quarterTurns: 3), offCentre])
        guard case .cleanAperture(let primaryClap)? = try structure.transforms(of: 1).last,
              case .cleanAperture(let turned)? = try structure.inheritedTransforms(ofGainMap: 2).last
        else { Issue.record("no clap"); return }
        #expect(primaryClap.cropRect(imageWidth: 128, imageHeight: 192)! == (13, 21, 100, 150))
        #expect(turned.cropRect(imageWidth: 64, imageHeight: 96)! == (7, 11, 50, 75))
    }

    @Test("A scaled clap rounds each edge to the nearest pixel, keeps at least one pixel, and stays inside the image")
    func scaledClapRounding() throws {
        func crop(_ width: Int, _ height: Int, _ x: Int, _ y: Int, from: (Int, Int), to: (Int, Int)) -> (Int, Int, Int, Int)? {
            let clap = CleanAperture(widthNumerator: width, widthDenominator: 1, heightNumerator: height, heightDenominator: 1,
                                     horizontalOffsetNumerator: 2 * x + width - from.0, horizontalOffsetDenominator: 2,
                                     verticalOffsetNumerator: 2 * y + height - from.1, verticalOffsetDenominator: 2)
            return clap.scaled(from: ImageSize(width: from.0, height: from.1), to: ImageSize(width: to.0, height: to.1))?
                .cropRect(imageWidth: to.0, imageHeight: to.1).map { ($0.x, $0.y, $0.width, $0.height) }
        }
        // Edges 3 and 10 of 16 → 1.5 and 5 of 8: 2 (half up) and 5.
        #expect(crop(7, 16, 3, 0, from: (16, 16), to: (8, 8))! == (2, 0, 3, 8))
        // One pixel of 100 → of 10: still one pixel, at the rounded place; the last pixel stays inside.
        #expect(crop(1, 1, 99, 99, from: (100, 100), to: (10, 10))! == (9, 9, 1, 1))
        #expect(crop(1, 1, 0, 0, from: (100, 100), to: (10, 10))! == (0, 0, 1, 1))
        // Scaled up, as a full-size gain map of a smaller primary would be.
        #expect(crop(30, 20, 5, 10, from: (40, 40), to: (80, 120))! == (10, 30, 60, 60))
        // No crop where cropRect has none (a zero denominator).
        let broken = CleanAperture(widthNumerator: 10, widthDenominator: 0, heightNumerator: 10, heightDenominator: 1,
                                   horizontalOffsetNumerator: 0, horizontalOffsetDenominator: 1, verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)
        #expect(broken.scaled(from: ImageSize(width: 20, height: 20), to: ImageSize(width: 10, height: 10)) == nil)
    }

    @Test("A primary whose clap crops nothing, or a gain map without ispe, gives a typed error, not a guess")
    func unusable() throws {
        let broken = B.clap(width: (10, 0), height: (10, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))
        #expect(throws: HEIFError.self) { try Self.inherited(primary: [broken]) }
        #expect(throws: HEIFError.self) { try Self.inherited(primary: [B.irot(quarterTurns: 1)], mapSize: nil) }
        #expect(try Self.inherited(primary: [], mapSize: nil) == [], "nothing to take, nothing to size")
    }

    @Test("A standalone gain map carries the added transforms after its own properties, essential; property boxes read back as written")
    func standaloneAdding() throws {
        let (structure, file) = try Self.structure(primary: [])
        let added: [ImageTransform] = [.cleanAperture(CleanAperture(widthNumerator: 80, widthDenominator: 1, heightNumerator: 56, heightDenominator: 1,
                                                                    horizontalOffsetNumerator: -3, horizontalOffsetDenominator: 2,
                                                                    verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)),
                                       .rotation(quarterTurnsAnticlockwise: 3), .mirror(.horizontal), .mirror(.vertical)]
        let source = try structure.standaloneImage(2, in: file, adding: added)
        let shown = try HEIFStructure.read(from: source)
        #expect(shown.primaryID == 2)
        #expect(try shown.transforms(of: 2) == added)
        #expect(shown.essentialPropertyTypes(of: 2) == ["auxC", "clap", "irot", "imir", "imir"])
        #expect(shown.associatedProperties(of: 2).first?.type == "ispe")
        #expect(try shown.itemData(2, from: source, maxBytes: 16) == [5, 6, 7, 8])
        #expect(try HEIFStructure.read(from: try structure.standaloneImage(2, in: file)).transforms(of: 2) == [], "nothing added unasked")
    }
}
