import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

@Suite("HEIF container structure and primary-item checks")
struct HEIFStructureTests {
    typealias B = BoxBuilder

    func structure(_ bytes: [UInt8]) throws(HEIFError) -> HEIFStructure {
        try HEIFStructure.read(from: MemoryByteSource(bytes))
    }

    @Test("Items, references and properties are read")
    func basics() throws {
        let file = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1"), (2, "hvc1"), (3, "Exif")],
                                   references: [B.reference("thmb", from: 2, to: [1]), B.reference("cdsc", from: 3, to: [1])],
                                   properties: [B.hvcC(chroma: 1), B.pixi(channels: 3)], associations: [(1, [1, 2])])
            + B.box("mdat", [1, 2, 3])
        let s = try structure(file)
        #expect(s.brands == ["heic", "mif1", "heic"])
        #expect(s.primaryID == 1)
        #expect(s.items[3]?.type == "Exif")
        #expect(s.referenced(from: 2, type: "thmb") == [1])
        #expect(s.properties(of: 1, type: "pixi").count == 1)
        let primary = try s.primaryImage()
        #expect(primary == ImageItem(id: 1, itemType: "hvc1", isMonochrome: false))
    }

    @Test("infe names and mime content types are read; missing terminators do not trap")
    func itemNames() throws {
        let unterminated = B.box("infe", B.fullBox(2) + B.u16(5) + B.u16(0) + Array("mimeXMP".utf8))
        let nameOnly = B.box("infe", B.fullBox(3) + B.u32(6) + B.u16(0) + Array("mime".utf8) + Array("x".utf8) + [0] + Array("text/plain".utf8))
        let bare = B.box("infe", B.fullBox(2) + B.u16(8) + B.u16(0) + Array("hvc1".utf8))
        let file = B.ftyp + B.meta(primary: 1, items: [], extraItems: [
            B.infe(id: 1, type: "hvc1", name: "Tile 1"), B.infe(id: 2, type: "mime", name: "XMP", contentType: "application/rdf+xml"),
            B.infe(id: 3, type: "Exif", name: "é"), unterminated, nameOnly, bare,
        ])
        let items = try structure(file).items
        #expect(items[1] == HEIFStructure.Item(id: 1, type: "hvc1", hidden: false, name: "Tile 1", contentType: nil))
        #expect(items[2]?.contentType == "application/rdf+xml")
        #expect(items[2]?.name == "XMP")
        #expect(items[3]?.name == "é")
        #expect(items[5] == HEIFStructure.Item(id: 5, type: "mime", hidden: false, name: "XMP", contentType: ""))
        #expect(items[6] == HEIFStructure.Item(id: 6, type: "mime", hidden: false, name: "x", contentType: "text/plain"))
        #expect(items[8] == HEIFStructure.Item(id: 8, type: "hvc1", hidden: false, name: "", contentType: nil))
    }

    @Test("Monochrome from pixi, else from hvcC, else from the first grid tile")
    func monochrome() throws {
        let byPixi = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], properties: [B.hvcC(chroma: 1), B.pixi(channels: 1)],
                                     associations: [(1, [1, 2])])
        #expect(try structure(byPixi).primaryImage().isMonochrome)
        let byHvcC = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], properties: [B.hvcC(chroma: 0)], associations: [(1, [1])])
        #expect(try structure(byHvcC).primaryImage().isMonochrome)
        let grid = B.ftyp + B.meta(primary: 9, items: [(9, "grid"), (1, "hvc1")], references: [B.reference("dimg", from: 9, to: [1])],
                                   properties: [B.hvcC(chroma: 0)], associations: [(1, [1])])
        #expect(try structure(grid).primaryImage() == ImageItem(id: 9, itemType: "grid", isMonochrome: true))
    }

    @Test("A primary that is a thumbnail of another item is refused (the corpus's invalid-id case)")
    func primaryIsThumbnail() {
        let file = B.ftyp + B.meta(primary: 2, items: [(1, "hvc1"), (2, "grid"), (3, "hvc1")],
                                   references: [B.reference("dimg", from: 2, to: [1]), B.reference("thmb", from: 2, to: [3])])
        #expect(throws: HEIFError.unusableImage(id: 2, reason: "is declared a thumbnail of item 3 ('thmb' reference), so the file names no real photo")) {
            try structure(file).primaryImage()
        }
    }

    @Test("Missing items and missing boxes are named")
    func missing() {
        #expect(throws: HEIFError.missingItem(referencedBy: "'pitm'", id: 7)) {
            try structure(B.ftyp + B.meta(primary: 7, items: [(1, "hvc1")])).primaryImage()
        }
        #expect(throws: HEIFError.missingItem(referencedBy: "'dimg' of item 2", id: 5)) {
            try structure(B.ftyp + B.meta(primary: 2, items: [(2, "grid")], references: [B.reference("dimg", from: 2, to: [5])])).primaryImage()
        }
        #expect(throws: HEIFError.missingBox("pitm")) { try structure(B.ftyp + B.meta(primary: nil, items: [(1, "hvc1")])) }
        #expect(throws: HEIFError.missingBox("meta")) { try structure(B.ftyp + B.box("mdat", [])) }
        #expect(throws: HEIFError.malformedBox("hdlr", reason: "handler 'vide' is not 'pict'")) {
            try structure(B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], handler: "vide"))
        }
    }

    @Test("A box that claims more bytes than the file has is reported with its offset")
    func truncatedTopLevel() {
        var file = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")])
        file.replaceSubrange(B.ftyp.count..<(B.ftyp.count + 4), with: B.u32(1_000_000))
        #expect(throws: HEIFError.corruptStructure("the box at offset \(B.ftyp.count) declares 1000000 bytes, past the end of the \(file.count)-byte file")) {
            try structure(file)
        }
    }

    @Test("A truncated mdat after meta is left to the decoder")
    func truncatedMdat() throws {
        var file = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")]) + B.box("mdat", [1, 2, 3, 4])
        file.removeLast(2)
        #expect(try structure(file).primaryID == 1)
    }

    /// A container that uses every part of the reader: tiles in `mdat` (iloc v1, two extents
    /// for one of them), a `grid` descriptor and an Exif item in `idat`, transforms and colour.
    static func richContainer() -> [UInt8] {
        let grid = B.grid(rows: 1, columns: 2, width: 60, height: 30)
        let tiles: [UInt8] = Array(0..<64)
        func build(_ mdatStart: Int) -> [UInt8] {
            let start = UInt64(mdatStart)
            let iloc = B.iloc(baseOffsetSize: 4, [
                B.Location(id: 1, baseOffset: start, extents: [(0, 0, 20), (0, 40, 4)]),
                B.Location(id: 4, extents: [(0, start + 20, 0)]),
                B.Location(id: 2, construction: 1, extents: [(0, 0, UInt64(grid.count))]),
                B.Location(id: 3, construction: 1, baseOffset: UInt64(grid.count), extents: [(0, 0, 0)]),
            ])
            return B.ftyp + B.meta(primary: 2, items: [(1, "hvc1"), (2, "grid"), (3, "Exif"), (4, "hvc1")],
                                   references: [B.reference("dimg", from: 2, to: [1, 4]), B.reference("cdsc", from: 3, to: [2])],
                                   properties: [B.hvcC(chroma: 1), B.pixi(channels: 3), B.ispe(width: 32, height: 30),
                                                B.clap(width: (59, 1), height: (29, 2), horizontalOffset: (-1, 2), verticalOffset: (-1, 4)),
                                                B.irot(quarterTurns: 1), B.imir(axis: 1), B.colr(primaries: 1, transfer: 13, matrix: 6, fullRange: true),
                                                B.colr(kind: "prof", icc: [1, 2, 3, 4]), B.ispe(width: 60, height: 30)],
                                   associations: [(1, [0x81, 3, 0x82]), (4, [0x81, 3]), (2, [9, 0x84, 0x85, 0x86, 7, 8])],
                                   extraBoxes: [iloc, B.idat(grid + Array("Exif\0\0MM".utf8))])
        }
        return build(build(0).count + 8) + B.box("mdat", tiles)
    }

    @Test("The rich container used for mutations is read in full")
    func richContainerReads() throws {
        let file = Self.richContainer()
        let s = try structure(file)
        let source = MemoryByteSource(file)
        #expect(try s.itemData(1, from: source, maxBytes: 100) == Array(0..<20) + Array(40..<44))
        #expect(try s.itemData(4, from: source, maxBytes: 100) == Array(20..<64))
        #expect(try ImageGrid.parse(s.itemData(2, from: source, maxBytes: 100)) == ImageGrid(rows: 1, columns: 2, outputWidth: 60, outputHeight: 30))
        #expect(try s.itemData(3, from: source, maxBytes: 100) == Array("Exif\0\0MM".utf8))
        #expect(try s.transforms(of: 2).count == 3)
        #expect(s.colour(of: 2).nclx == NCLX(primaries: 1, transfer: 13, matrix: 6, fullRange: true))
        #expect(s.essentialPropertyTypes(of: 2) == ["clap", "irot", "imir"])
    }

    @Test("No mutation of a valid container makes the parser or the item readers trap")
    func mutations() {
        let valid = Self.richContainer()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        var parsed = 0, readItems = 0, grids = 0, crops = 0
        for _ in 0..<TestScale.iterations(20_000) {
            var bytes = valid
            for _ in 0...random(4) {
                switch random(4) {
                case 0: bytes[random(bytes.count)] = UInt8(random(256))
                case 1: bytes[random(bytes.count)] = [0, 0xFF, 0x7F, 0x80][random(4)]
                case 2: bytes.removeLast(random(min(bytes.count, 40)))
                default:
                    let at = random(bytes.count - 4)
                    bytes.replaceSubrange(at..<(at + 4), with: B.u32([0, 1, 8, 0x7FFF_FFFF, 0xFFFF_FFFF][random(5)]))
                }
            }
            guard let s = try? structure(bytes) else { continue }
            if (try? s.primaryImage()) != nil { parsed += 1 }
            let source = MemoryByteSource(bytes)
            _ = try? s.checkItemsInFile(size: bytes.count)
            for id in Set(s.items.keys).union(s.locations.keys).union(s.associations.keys) {
                if let data = try? s.itemData(id, from: source, maxBytes: 1 << 16) {
                    readItems += 1
                    if (try? ImageGrid.parse(data)) != nil { grids += 1 }
                }
                let size = s.imageSize(of: id) ?? ImageSize(width: 60, height: 30)
                for case .cleanAperture(let clap) in (try? s.transforms(of: id)) ?? [] {
                    if clap.cropRect(imageWidth: size.width, imageHeight: size.height) != nil { crops += 1 }
                }
                _ = (s.colour(of: id), s.bitDepths(of: id), s.auxiliaryType(of: id), s.essentialPropertyTypes(of: id))
            }
        }
        #expect(parsed > 0, "some mutations leave a valid file")
        #expect(readItems > 0 && grids > 0 && crops > 0, "item readers ran on mutated files")
    }

    @Test("Every committed sample parses and has a usable primary")
    func samples() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let names = try FileManager.default.subpathsOfDirectory(atPath: samples.path).filter { HEIFExtensions.matches($0) }
        var checked = 0
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: samples.appendingPathComponent(name)))
            guard ImageFormat.sniff(Array(bytes.prefix(256))).isHEIF else { continue }
            // A low-overhead `mini` file is read as the HEIF it stands for.
            let source = try MinimizedImage.translating(MemoryByteSource(bytes)) ?? MemoryByteSource(bytes)
            let primary = try HEIFStructure.read(from: source).primaryImage()
            #expect(primary.isMonochrome == name.contains("monochrome"), "\(name)")
            checked += 1
        }
        #expect(checked >= 5)
    }
}
