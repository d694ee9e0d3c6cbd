import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// The derived-image shapes that crashed or exhausted libheif 1.15 in the #10 mutant
/// runs are refused by our reader before any decoder sees them; real shapes pass.
@Suite("Derived images: inputs, cycles, depth, grid coverage and canvas limits")
struct DerivationCheckTests {
    typealias B = BoxBuilder

    /// A file whose `hvc1` items are 64×64 tiles (`ispe`), whose derived items have the
    /// given `dimg` inputs, and whose descriptors (grid, overlay) are stored in `idat`.
    static func file(primary: Int, items: [(Int, String)], dimg: [(Int, [Int])], descriptors: [Int: [UInt8]] = [:]) -> [UInt8] {
        var idat: [UInt8] = []
        var locations: [B.Location] = []
        for (id, bytes) in descriptors.sorted(by: { $0.key < $1.key }) {
            locations.append(B.Location(id: id, construction: 1, extents: [(0, UInt64(idat.count), UInt64(bytes.count))]))
            idat += bytes
        }
        let tiles = items.filter { $0.1 == "hvc1" }.map { ($0.0, [1]) }
        return B.ftyp + B.meta(primary: primary, items: items, references: dimg.map { B.reference("dimg", from: $0.0, to: $0.1) },
                               properties: [B.ispe(width: 64, height: 64)], associations: tiles,
                               extraBoxes: [B.iloc(locations), B.idat(idat)])
    }

    static func check(_ bytes: [UInt8], maxPixels: Int = 256_000_000) throws(HEIFError) {
        let source = MemoryByteSource(bytes)
        try HEIFStructure.read(from: source).checkDerivation(from: source, maxPixels: maxPixels)
    }

    /// An overlay descriptor (16-bit fields): fill, canvas, then one offset per input.
    static func overlay(width: Int, height: Int, inputs: Int) -> [UInt8] {
        [0, 0] + [UInt8](repeating: 0, count: 8) + B.u16(width) + B.u16(height) + [UInt8](repeating: 0, count: 4 * inputs)
    }

    static let tiles: [(Int, String)] = [(1, "hvc1"), (2, "hvc1"), (3, "hvc1"), (4, "hvc1")]

    @Test("Real shapes pass: a grid its tiles cover, an iden of it, an overlay of tiles")
    func realShapes() throws {
        let grid = Self.file(primary: 10, items: Self.tiles + [(10, "grid")], dimg: [(10, [1, 2, 3, 4])],
                             descriptors: [10: B.grid(rows: 2, columns: 2, width: 120, height: 100)])
        try Self.check(grid)
        let iden = Self.file(primary: 11, items: Self.tiles + [(10, "grid"), (11, "iden")], dimg: [(10, [1, 2, 3, 4]), (11, [10])],
                             descriptors: [10: B.grid(rows: 2, columns: 2, width: 128, height: 128)])
        try Self.check(iden)
        let overlay = Self.file(primary: 10, items: Self.tiles + [(10, "iovl")], dimg: [(10, [1, 2])],
                                descriptors: [10: Self.overlay(width: 1000, height: 680, inputs: 2)])
        try Self.check(overlay)
    }

    @Test("A grid whose tiles do not cover its canvas, or that has the wrong number of tiles, is refused")
    func gridCoverage() {
        let uncovered = Self.file(primary: 10, items: Self.tiles + [(10, "grid")], dimg: [(10, [1, 2, 3, 4])],
                                  descriptors: [10: B.grid(rows: 2, columns: 2, width: 4095, height: 4080, wide: true)])
        #expect(throws: HEIFError.malformedBox("grid", reason: "item 10's 2×2 tiles of 64×64 cover 128×128, not its 4095×4080 canvas")) {
            try Self.check(uncovered)
        }
        let short = Self.file(primary: 10, items: Self.tiles + [(10, "grid")], dimg: [(10, [1, 2, 3])],
                              descriptors: [10: B.grid(rows: 2, columns: 2, width: 128, height: 128)])
        #expect(throws: HEIFError.malformedBox("grid", reason: "item 10 declares 2×2 tiles but has 3 'dimg' inputs")) {
            try Self.check(short)
        }
    }

    @Test("Cycles, self-references and chains deeper than the limit are refused")
    func cyclesAndDepth() {
        let selfOverlay = Self.file(primary: 10, items: Self.tiles + [(10, "iovl")], dimg: [(10, [1, 10])],
                                    descriptors: [10: Self.overlay(width: 64, height: 64, inputs: 2)])
        #expect(throws: HEIFError.malformedBox("iref", reason: "item 10 derives from item 10, which derives from it: a derivation cycle")) {
            try Self.check(selfOverlay)
        }
        let loop = Self.file(primary: 10, items: [(10, "iden"), (11, "iden")], dimg: [(10, [11]), (11, [10])])
        #expect(throws: HEIFError.malformedBox("iref", reason: "item 11 derives from item 10, which derives from it: a derivation cycle")) {
            try Self.check(loop)
        }
        // An alpha grid whose tile is the primary grid: decoding the primary decodes its
        // alpha, which decodes the primary… (libheif 1.15 hung with hundreds of threads).
        let alphaLoop = B.ftyp + B.meta(primary: 10, items: Self.tiles + [(10, "grid"), (11, "grid")],
                                        references: [B.reference("dimg", from: 10, to: [1]), B.reference("dimg", from: 11, to: [10]),
                                                     B.reference("auxl", from: 11, to: [10])],
                                        properties: [B.ispe(width: 64, height: 64)], associations: [(1, [1]), (10, [1])],
                                        extraBoxes: [B.iloc([B.Location(id: 10, construction: 1, extents: [(0, 0, 8)]),
                                                             B.Location(id: 11, construction: 1, extents: [(0, 8, 8)])]),
                                                     B.idat(B.grid(rows: 1, columns: 1, width: 64, height: 64)
                                                            + B.grid(rows: 1, columns: 1, width: 64, height: 64))])
        #expect(throws: HEIFError.malformedBox("iref", reason: "item 11 derives from item 10, which derives from it: a derivation cycle")) {
            try Self.check(alphaLoop)
        }
        let chain = (10..<20).map { ($0, "iden") } + [(1, "hvc1")]
        let deep = Self.file(primary: 10, items: chain, dimg: (10..<19).map { ($0, [$0 + 1]) } + [(19, [1])])
        #expect(throws: HEIFError.limitExceeded("derived images nest more than 8 deep below item 10")) { try Self.check(deep) }
    }

    @Test("Inputs that are missing, or not images, and an iden with two inputs are refused")
    func badInputs() {
        let exifInput = Self.file(primary: 10, items: [(10, "iden"), (3, "Exif")], dimg: [(10, [3])])
        #expect(throws: HEIFError.unusableImage(id: 10, reason: "derives from item 3 (input of item 10), a 'Exif' item, not an image")) {
            try Self.check(exifInput)
        }
        let missing = Self.file(primary: 11, items: [(11, "iden"), (10, "iden"), (1, "hvc1")], dimg: [(11, [10]), (10, [7])])
        #expect(throws: HEIFError.missingItem(referencedBy: "'dimg' of item 10", id: 7)) { try Self.check(missing) }
        let twoInputs = Self.file(primary: 10, items: Self.tiles + [(10, "iden")], dimg: [(10, [1, 2])])
        #expect(throws: HEIFError.malformedBox("iden", reason: "item 10 has 2 'dimg' inputs, 1 expected")) { try Self.check(twoInputs) }
    }

    @Test("An overlay or grid canvas over the pixel limit is refused before decoding")
    func canvasLimit() {
        let huge = Self.file(primary: 10, items: Self.tiles + [(10, "iovl")], dimg: [(10, [1])],
                             descriptors: [10: Self.overlay(width: 60000, height: 60000, inputs: 1)])
        #expect(throws: HEIFError.limitExceeded("item 10's 'iovl' canvas is 60000×60000, over the 256000000-pixel limit")) {
            try Self.check(huge)
        }
        let grid = Self.file(primary: 10, items: Self.tiles + [(10, "grid")], dimg: [(10, [1, 2, 3, 4])],
                             descriptors: [10: B.grid(rows: 2, columns: 2, width: 128, height: 128)])
        #expect(throws: HEIFError.limitExceeded("item 10's 'grid' canvas is 128×128, over the 10000-pixel limit")) {
            try Self.check(grid, maxPixels: 10_000)
        }
    }
}

@Suite("Declared sizes against the pixels")
struct DeclaredSizeTests {
    @Test("A grid whose 'ispe' is not its descriptor's output size gets a warning naming both; a matching one none")
    func gridMismatch() throws {
        typealias B = BoxBuilder
        func file(ispe: (Int, Int)) -> [UInt8] {
            let descriptor = B.grid(rows: 1, columns: 2, width: 120, height: 64)
            return B.ftyp + B.meta(primary: 10, items: [(1, "hvc1"), (2, "hvc1"), (10, "grid")],
                                   references: [B.reference("dimg", from: 10, to: [1, 2])],
                                   properties: [B.ispe(width: 64, height: 64), B.ispe(width: ispe.0, height: ispe.1)],
                                   associations: [(1, [1]), (2, [1]), (10, [2])],
                                   extraBoxes: [B.iloc([B.Location(id: 10, construction: 1, extents: [(0, 0, UInt64(descriptor.count))])]),
                                                B.idat(descriptor)])
        }
        let odd = MemoryByteSource(file(ispe: (60000, 60000)))
        #expect(try HEIFStructure.read(from: odd).declaredSizeWarnings(from: odd)
            == [Warning(.declaredSizeMismatch, "item 10's 'ispe' says 60000×60000 but its grid descriptor says 120×64")])
        let fine = MemoryByteSource(file(ispe: (120, 64)))
        #expect(try HEIFStructure.read(from: fine).declaredSizeWarnings(from: fine).isEmpty)
    }
}
