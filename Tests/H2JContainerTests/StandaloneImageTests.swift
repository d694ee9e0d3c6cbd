import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// An image item shown as an HEIF of its own (`standaloneImage`), and the `meta` writer
/// behind it and the `mini` translation (`MetaBoxWriter`).
@Suite("An image item as an HEIF of its own, and the synthesized 'meta' box")
struct StandaloneImageTests {
    typealias B = BoxBuilder

    /// A file like libavif's gain-map AVIFs, with HEVC items: the primary (1), a `tmap`
    /// (2) of it and a hidden gain-map grid (10) of two hidden tiles (11, 12), whose
    /// descriptor lies in `idat`; tile 12's data is two extents, one through a base
    /// offset. `gridInputs` and `construction` of tile 11 make hostile variants.
    static func file(gridInputs: [Int] = [11, 12], tileConstruction: Int = 0, extraItems: [(Int, String)] = []) -> [UInt8] {
        let tiles: [[UInt8]] = [Array(repeating: 0xA1, count: 20), Array(repeating: 0xB2, count: 30), Array(repeating: 0xC3, count: 10)]
        let properties = [B.ispe(width: 64, height: 64), B.hvcC(chroma: 1), B.ispe(width: 120, height: 100), B.irot(quarterTurns: 1),
                          B.pixi(channels: 1), B.hvcC(chroma: 0), B.colr(primaries: 2, transfer: 2, matrix: 6, fullRange: true)]
        let items = [(1, "hvc1"), (2, "tmap"), (11, "hvc1"), (12, "hvc1")] + extraItems
        func build(mdatStart: Int) -> [UInt8] {
            let data = mdatStart + 8
            let locations = [
                B.Location(id: 1, extents: [(0, UInt64(data), UInt64(tiles[0].count))]),
                B.Location(id: 10, construction: 1, extents: [(0, 0, 8)]),
                B.Location(id: 11, construction: tileConstruction, extents: [(0, UInt64(data + 20), 15)]),
                B.Location(id: 12, baseOffset: UInt64(data + 35), extents: [(0, 0, 15), (0, 15, 10)]),
            ]
            let meta = B.meta(primary: 1, items: items,
                              references: [B.reference("dimg", from: 2, to: [1, 10]), B.reference("dimg", from: 10, to: gridInputs)],
                              properties: properties,
                              associations: [(1, [1, 0x82]), (10, [3, 0x84, 5]), (11, [1, 0x86, 7]), (12, [1, 0x86, 7])],
                              extraItems: [B.infe(id: 10, type: "grid", hidden: true)],
                              extraBoxes: [B.iloc(baseOffsetSize: 4, [locations[0], locations[1], locations[2], locations[3]]),
                                           B.idat(B.grid(rows: 1, columns: 2, width: 120, height: 64))])
            return meta
        }
        let ftyp = B.box("ftyp", Array("heic".utf8) + B.u32(0) + Array("mif1heictmap".utf8))
        let meta = build(mdatStart: ftyp.count + build(mdatStart: 0).count)
        return ftyp + meta + B.box("mdat", tiles.flatMap { $0 })
    }

    /// Item 10 of `file` shown on its own, and what a reader of it sees.
    static func standalone(_ file: [UInt8], item: UInt32 = 10) throws -> (source: ByteSource, structure: HEIFStructure, original: HEIFStructure) {
        let original = try HEIFStructure.read(from: MemoryByteSource(file))
        let source = try original.standaloneImage(item, in: MemoryByteSource(file))
        return (source, try HEIFStructure.read(from: source), original)
    }

    @Test("A hidden grid gain map becomes the primary: its tiles (hidden) and nothing else, their properties with essential flags in order, their dimg order, their data byte for byte, the brands")
    func gridGainMap() throws {
        let file = Self.file()
        let (source, shown, original) = try Self.standalone(file)
        #expect(shown.primaryID == 10)
        #expect(Set(shown.items.keys) == [10, 11, 12])
        #expect(shown.items[10]?.hidden == false && shown.items[11]?.hidden == true && shown.items[12]?.hidden == true)
        #expect(shown.items[10]?.type == "grid" && shown.items[11]?.type == "hvc1")
        #expect(shown.references == [HEIFStructure.Reference(type: "dimg", from: 10, to: [11, 12])])
        #expect(shown.brands == original.brands)
        for id: UInt32 in [10, 11, 12] {
            #expect(shown.associatedProperties(of: id) == original.associatedProperties(of: id), "item \(id)")
            #expect(shown.essentialPropertyTypes(of: id) == original.essentialPropertyTypes(of: id), "item \(id)")
            #expect(try shown.itemData(id, from: source, maxBytes: 1 << 20) == original.itemData(id, from: MemoryByteSource(file), maxBytes: 1 << 20),
                    "item \(id)")
        }
        #expect(try shown.transforms(of: 10) == [.rotation(quarterTurnsAnticlockwise: 1)])
        #expect(try shown.primaryImage() == ImageItem(id: 10, itemType: "grid", isMonochrome: true))
        try shown.checkItemsInFile(size: source.size)
        try shown.checkDerivation(from: source, maxPixels: 1 << 20)
        // The file follows the header, unchanged, inside an `mdat` the reader skips.
        let head = try #require(source as? SplicedByteSource).head
        #expect(try source.read(at: head.count, count: file.count) == file)
        #expect(Array(head.suffix(8).dropFirst(4)) == Array("mdat".utf8))
    }

    @Test("A coded item with no inputs: itself alone; the primary of a file too")
    func codedItem() throws {
        let (source, shown, _) = try Self.standalone(Self.file(), item: 12)
        #expect(shown.primaryID == 12 && Set(shown.items.keys) == [12] && shown.references.isEmpty)
        #expect(try shown.itemData(12, from: source, maxBytes: 100) == [UInt8](repeating: 0xB2, count: 15) + [UInt8](repeating: 0xC3, count: 10))
        let (_, primary, _) = try Self.standalone(Self.file(), item: 1)
        #expect(primary.primaryID == 1 && Set(primary.items.keys) == [1])
    }

    @Test("Hostile inputs: a missing input, an input of another file's data kind, a cycle, a chain too deep")
    func hostile() throws {
        #expect(throws: HEIFError.missingItem(referencedBy: "'dimg' of image item 10", id: 13)) {
            try Self.standalone(Self.file(gridInputs: [11, 13]))
        }
        #expect(throws: HEIFError.unsupportedItemData(item: 11, reason: "it is built from other items' data ('iloc' construction method 2)")) {
            try Self.standalone(Self.file(tileConstruction: 2))
        }
        // A grid among its own inputs is shown once (and left to checkDerivation to refuse).
        let (_, cycle, _) = try Self.standalone(Self.file(gridInputs: [11, 10]))
        #expect(Set(cycle.items.keys) == [10, 11])
        // 10 → 20 → 21 → … → 29: deeper than any real file.
        let chain = (20...29).map { ($0, "iden") }
        var file = Self.file(gridInputs: [20], extraItems: chain)
        #expect(throws: HEIFError.missingLocation(item: 20)) { try Self.standalone(file) }
        file = B.ftyp + B.meta(primary: 20, items: chain, references: (20...28).map { B.reference("dimg", from: $0, to: [$0 + 1]) },
                               extraBoxes: [B.iloc((20...29).map { B.Location(id: $0, extents: []) })])
        #expect(throws: HEIFError.limitExceeded("derived images nest more than 8 deep below item 20")) {
            try Self.standalone(file, item: 20)
        }
    }

    @Test("No bit flip in the file (three bits of each byte) makes the standalone image, or reading it back, trap; most still give one")
    func mutations() {
        let file = Self.file()
        var shown = 0
        for at in 0..<file.count {
            for bit in [0, 3, 7] {
                var bytes = file
                bytes[at] ^= 1 << UInt8(bit)
                let source = MemoryByteSource(bytes)
                guard let structure = try? HEIFStructure.read(from: source),
                      let isolated = try? structure.standaloneImage(10, in: source),
                      let read = try? HEIFStructure.read(from: isolated) else { continue }
                _ = try? read.primaryImage()
                try? read.checkDerivation(from: isolated, maxPixels: 1 << 20)
                shown += 1
            }
        }
        #expect(shown > file.count * 3 / 2, "\(shown) of \(file.count * 3) mutants shown")
    }

    @Test("The meta writer: 32-bit item IDs and over 127 properties take the wide forms (infe 3, iloc 2, ipma 1 with 15-bit indices, iref 1, pitm 1), and read back")
    func wideFields() throws {
        var meta = MetaBoxWriter()
        meta.addItem(70_000, type: "av01")
        meta.addItem(5, type: "av01", hidden: true)
        meta.addReference("dimg", from: 70_000, to: [5])
        let indices = (0..<130).map { meta.addProperty(BoxBytes.box("free", BoxBytes.u32($0))) }
        #expect(meta.addProperty(BoxBytes.box("free", BoxBytes.u32(7))) == 8, "an identical box is stored once")
        meta.associate(70_000, [(indices[129], true), (indices[0], false)])
        meta.locate(70_000, inWrapped: [3..<7, 10..<12])
        meta.locate(5, inIdat: [9, 8, 7])
        let wrapped: [UInt8] = Array(0..<16)
        let head = meta.heifHeader(ftyp: B.ftyp, primary: 70_000, wrapping: wrapped.count)
        let source = SplicedByteSource(head: head, tail: MemoryByteSource(wrapped))
        let structure = try HEIFStructure.read(from: source)
        #expect(structure.primaryID == 70_000 && structure.items[5]?.hidden == true && structure.items[70_000]?.hidden == false)
        #expect(structure.references == [HEIFStructure.Reference(type: "dimg", from: 70_000, to: [5])])
        #expect(structure.associations[70_000] == [PropertyAssociation(index: 130, essential: true), PropertyAssociation(index: 1, essential: false)])
        #expect(structure.properties.count == 130)
        #expect(try structure.itemData(70_000, from: source, maxBytes: 100) == [3, 4, 5, 6, 10, 11])
        #expect(try structure.itemData(5, from: source, maxBytes: 100) == [9, 8, 7])
    }
}
