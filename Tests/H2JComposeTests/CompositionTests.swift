import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JCompose
@testable import H2JSupport

/// A derived image composed from its inputs (`CompositionPlan`, `Composition`): overlay
/// offsets anywhere, the fill and its alpha, clipping, `iden` chains with their
/// transforms in order, grids of `iden`s, layer alpha, and the refusals (cycles, depth,
/// pixel limits) that keep a hostile file from trapping or hanging.
@Suite("Derived images composed by heic2jpg")
struct CompositionTests {
    typealias B = BoxBuilder

    /// Item `id` of a test file: its type, `dimg` inputs, properties (with essential flags)
    /// and descriptor (stored in `idat`).
    struct Item {
        let id: Int
        let type: String
        var inputs: [Int] = []
        var properties: [(box: [UInt8], essential: Bool)] = []
        var descriptor: [UInt8]? = nil
    }

    static func structure(primary: Int, _ items: [Item]) throws -> (HEIFStructure, ByteSource) {
        var idat: [UInt8] = [], locations: [B.Location] = [], properties: [[UInt8]] = [], associations: [(Int, [Int])] = []
        for item in items {
            if let descriptor = item.descriptor {
                locations.append(B.Location(id: item.id, construction: 1, extents: [(0, UInt64(idat.count), UInt64(descriptor.count))]))
                idat += descriptor
            }
            var indices: [Int] = []
            for property in item.properties {
                properties.append(property.box)
                indices.append(properties.count | (property.essential ? 0x80 : 0))
            }
            associations.append((item.id, indices))
        }
        let bytes = B.ftyp + B.meta(primary: primary, items: items.map { ($0.id, $0.type) },
                                    references: items.filter { !$0.inputs.isEmpty }.map { B.reference("dimg", from: $0.id, to: $0.inputs) },
                                    properties: properties, associations: associations, extraBoxes: [B.iloc(locations), B.idat(idat)])
        let source = MemoryByteSource(bytes)
        return (try HEIFStructure.read(from: source), source)
    }

    /// A coded picture of `width` × `height` (its `ispe`).
    static func picture(_ id: Int, _ width: Int, _ height: Int) -> Item {
        Item(id: id, type: "hvc1", properties: [(B.ispe(width: width, height: height), false)])
    }

    /// An overlay descriptor with 32-bit fields: fill (16-bit RGBA), canvas, offsets.
    static func overlay(fill: [Int], width: Int, height: Int, offsets: [(Int, Int)]) -> [UInt8] {
        [0, 1] + fill.flatMap { B.u16($0) } + B.u32(width) + B.u32(height)
            + offsets.flatMap { B.u32(Int(UInt32(bitPattern: Int32($0.0)))) + B.u32(Int(UInt32(bitPattern: Int32($0.1)))) }
    }

    /// The plan of `primary`, pictures sized by their `ispe`.
    static func plan(_ structure: HEIFStructure, _ source: ByteSource, primary: UInt32, maxPixels: Int = 1_000_000,
                     background: RGBColor = .white) throws -> Composition {
        try CompositionPlan.make(structure, item: primary, source: source, background: background, maxPixels: maxPixels) { id in
            let size = try #require(structure.imageSize(of: id))
            return (size.width, size.height)
        }
    }

    /// A gray raster whose pixel (x, y) is `value(x, y)`.
    static func gray(_ width: Int, _ height: Int, _ value: (Int, Int) -> Int) -> Raster {
        let raster = Raster(width: width, height: height, components: 1)!
        for y in 0..<height { for x in 0..<width { raster.mutableRow(y)[x] = UInt8(value(x, y)) } }
        return raster
    }

    /// The composed output, rows of samples.
    static func rendered(_ composition: Composition, _ inputs: [Composition.Input], components: Int) -> [[UInt8]] {
        var rows: [[UInt8]] = []
        composition.forEachBand(inputs, components: components) { band, stride, count in
            for r in 0..<count { rows.append(Array(UnsafeBufferPointer(start: band + r * stride, count: stride))) }
        }
        return rows
    }

    @Test("An overlay: the fill first, then each layer at its offset, negative or past the canvas, clipped; later layers on top")
    func overlayOffsets() throws {
        let (structure, source) = try Self.structure(primary: 10, [
            Self.picture(1, 2, 2), Self.picture(2, 2, 2),
            Item(id: 10, type: "iovl", inputs: [1, 2], descriptor: Self.overlay(fill: [0x8080, 0x8080, 0x8080, 0xFFFF], width: 4, height: 3,
                                                                              offsets: [(-1, -1), (3, 2)])),
        ])
        let composition = try Self.plan(structure, source, primary: 10)
        #expect(composition.width == 4 && composition.height == 3)
        #expect(composition.pictures.map(\.item) == [1, 2])
        let inputs = [Composition.Input(pixels: Self.gray(2, 2) { x, y in 10 + 10 * (y * 2 + x) }),
                      Composition.Input(pixels: Self.gray(2, 2) { x, y in 50 + 10 * (y * 2 + x) })]
        #expect(composition.components(pictureComponents: [1, 1]) == 1, "gray layers on a gray fill")
        // Layer 1's bottom-right pixel (40) at (0, 0); layer 2's top-left pixel (50) at (3, 2).
        #expect(Self.rendered(composition, inputs, components: 1) == [[40, 128, 128, 128], [128, 128, 128, 128], [128, 128, 128, 50]])
    }

    @Test("The fill's alpha is composited onto the background; a layer with alpha is blended onto what lies below")
    func fillAndLayerAlpha() throws {
        let (structure, source) = try Self.structure(primary: 10, [
            Self.picture(1, 2, 1),
            Item(id: 10, type: "iovl", inputs: [1], descriptor: Self.overlay(fill: [0, 0, 0, 0], width: 3, height: 1, offsets: [(1, 0)])),
        ])
        let composition = try Self.plan(structure, source, primary: 10, background: RGBColor(red: 200, green: 100, blue: 0))
        let layer = Composition.Input(pixels: Self.gray(2, 1) { _, _ in 0 }, alpha: Self.gray(2, 1) { x, _ in x == 0 ? 255 : 0 })
        #expect(composition.components(pictureComponents: [1]) == 3)
        // A transparent fill shows the background; an opaque layer pixel covers it, a transparent one does not.
        #expect(Self.rendered(composition, [layer], components: 3) == [[200, 100, 0, 0, 0, 0, 200, 100, 0]])
        #expect(CompositionPlan.multiple(8, of: Int.max) == Int.max)
    }

    @Test("An iden of an iden: each link's transforms in order (irot, then clap); a grid of idens places each mirrored tile")
    func idenChainsAndGrids() throws {
        // 3×2 picture:  0 1 2 / 3 4 5. One anticlockwise turn gives 2×3: 2 5 / 1 4 / 0 3; the clap keeps its top 2×2.
        let clap = B.clap(width: (2, 1), height: (2, 1), horizontalOffset: (0, 1), verticalOffset: (-1, 2))
        let (chain, chainSource) = try Self.structure(primary: 12, [
            Self.picture(1, 3, 2),
            Item(id: 11, type: "iden", inputs: [1], properties: [(B.irot(quarterTurns: 1), true)]),
            Item(id: 12, type: "iden", inputs: [11], properties: [(clap, true)]),
        ])
        let composition = try Self.plan(chain, chainSource, primary: 12)
        let picture = Composition.Input(pixels: Self.gray(3, 2) { x, y in y * 3 + x })
        #expect(Self.rendered(composition, [picture], components: 1) == [[2, 5], [1, 4]])

        let grid = B.grid(rows: 1, columns: 2, width: 3, height: 1)
        let (tiles, tilesSource) = try Self.structure(primary: 20, [
            Self.picture(1, 2, 1), Self.picture(2, 2, 1),
            Item(id: 11, type: "iden", inputs: [1], properties: [(B.imir(axis: 1), true)]),
            Item(id: 12, type: "iden", inputs: [2], properties: [(B.imir(axis: 1), true)]),
            Item(id: 20, type: "grid", inputs: [11, 12], descriptor: grid),
        ])
        #expect(tiles.isComposed(20) && !tiles.isComposed(1))
        let gridded = try Self.plan(tiles, tilesSource, primary: 20)
        let inputs = [Composition.Input(pixels: Self.gray(2, 1) { x, _ in 1 + x }), Composition.Input(pixels: Self.gray(2, 1) { x, _ in 3 + x })]
        // Tiles 1 2 and 3 4 mirrored: 2 1 | 4 3, cropped to the 3-pixel canvas.
        #expect(Self.rendered(gridded, inputs, components: 1) == [[2, 1, 4]])
        // Written as RGB, gray is repeated.
        #expect(Self.rendered(gridded, inputs, components: 3) == [[2, 2, 2, 1, 1, 1, 4, 4, 4]])
    }

    @Test("A derivation cycle and a chain deeper than the limit are refused, never followed")
    func cyclesAndDepth() throws {
        let (cycle, cycleSource) = try Self.structure(primary: 10, [
            Item(id: 10, type: "iden", inputs: [11]), Item(id: 11, type: "iden", inputs: [10]),
        ])
        #expect(throws: HEIFError.malformedBox("iref", reason: "item 11 derives from item 10, which derives from it: a derivation cycle")) {
            try Self.plan(cycle, cycleSource, primary: 10)
        }
        let depth = HEIFStructure.maxDerivationDepth + 2
        let (deep, deepSource) = try Self.structure(primary: 10, [Self.picture(1, 2, 2)]
            + (0..<depth).map { Item(id: 10 + $0, type: "iden", inputs: [$0 == depth - 1 ? 1 : 11 + $0]) })
        #expect(throws: HEIFError.limitExceeded("derived images nest more than \(HEIFStructure.maxDerivationDepth) deep below item 10")) {
            try Self.plan(deep, deepSource, primary: 10)
        }
    }

    @Test("Canvases, inputs and painted area are bounded by the pixel limit")
    func limits() throws {
        let (huge, hugeSource) = try Self.structure(primary: 10, [
            Self.picture(1, 2, 2),
            Item(id: 10, type: "iovl", inputs: [1], descriptor: Self.overlay(fill: [0, 0, 0, 0xFFFF], width: 70_000, height: 70_000, offsets: [(0, 0)])),
        ])
        #expect(throws: HEIFError.limitExceeded("item 10 is 70000×70000, over the 1000000-pixel limit")) {
            try Self.plan(huge, hugeSource, primary: 10)
        }
        // 20 layers of 100×100, each covering the whole 100×100 canvas: 21 canvases painted.
        let (stacked, stackedSource) = try Self.structure(primary: 10, [
            Self.picture(1, 100, 100),
            Item(id: 10, type: "iovl", inputs: [Int](repeating: 1, count: 20),
                 descriptor: Self.overlay(fill: [0, 0, 0, 0xFFFF], width: 100, height: 100, offsets: [(Int, Int)](repeating: (0, 0), count: 20))),
        ])
        #expect(throws: HEIFError.limitExceeded("item 10's inputs paint more than 8 times the 10000-pixel limit")) {
            try Self.plan(stacked, stackedSource, primary: 10, maxPixels: 10_000)
        }
        #expect(try Self.plan(stacked, stackedSource, primary: 10, maxPixels: 100_000).pictures.count == 1, "one input, decoded once")
    }

    @Test("An overlay descriptor: 16- and 32-bit fields, signed offsets; one too short is refused")
    func overlayDescriptor() throws {
        let narrow: [UInt8] = [0, 0] + [0, 1, 0, 2, 0, 3, 0xFF, 0xFF] + B.u16(300) + B.u16(200) + [0xFF, 0x38] + B.u16(7)
        let parsed = try ImageOverlay.parse(narrow, layers: 1)
        #expect(parsed.fill == [1, 2, 3, 0xFFFF] && parsed.width == 300 && parsed.height == 200)
        #expect(parsed.offsets.map(\.x) == [-200] && parsed.offsets.map(\.y) == [7])
        let wide = Self.overlay(fill: [0, 0, 0, 0], width: 70_000, height: 5, offsets: [(-70_000, 3)])
        #expect(try ImageOverlay.parse(wide, layers: 1).offsets.map(\.x) == [-70_000])
        #expect(throws: HEIFError.malformedBox("iovl", reason: "the descriptor has 18 bytes, too few for the offsets of 2 layers")) {
            try ImageOverlay.parse(narrow, layers: 2)
        }
        #expect(throws: HEIFError.malformedBox("iovl", reason: "descriptor version 1 is not 0")) {
            try ImageOverlay.parse([1] + narrow.dropFirst(), layers: 1)
        }
    }
}
