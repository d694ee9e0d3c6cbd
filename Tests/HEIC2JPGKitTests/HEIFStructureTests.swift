import Foundation
import Testing
@testable import HEIC2JPGKit

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
        #expect(primary == PrimaryImage(id: 1, itemType: "hvc1", isMonochrome: false))
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
        #expect(try structure(grid).primaryImage() == PrimaryImage(id: 9, itemType: "grid", isMonochrome: true))
    }

    @Test("A primary that is a thumbnail of another item is refused (the corpus's invalid-id case)")
    func primaryIsThumbnail() {
        let file = B.ftyp + B.meta(primary: 2, items: [(1, "hvc1"), (2, "grid"), (3, "hvc1")],
                                   references: [B.reference("dimg", from: 2, to: [1]), B.reference("thmb", from: 2, to: [3])])
        #expect(throws: HEIFError.unusablePrimary(id: 2, reason: "is declared a thumbnail of item 3 ('thmb' reference), so the file names no real photo")) {
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

    @Test("No mutation of a valid container makes the parser trap")
    func mutations() {
        let valid = B.ftyp + B.meta(primary: 2, items: [(1, "hvc1"), (2, "grid"), (3, "Exif")],
                                    references: [B.reference("dimg", from: 2, to: [1]), B.reference("cdsc", from: 3, to: [2])],
                                    properties: [B.hvcC(chroma: 1), B.pixi(channels: 3)], associations: [(1, [1, 2]), (2, [2])])
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        var parsed = 0
        for _ in 0..<20_000 {
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
            if let s = try? structure(bytes), (try? s.primaryImage()) != nil { parsed += 1 }
        }
        #expect(parsed > 0, "some mutations leave a valid file")
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
            let primary = try structure(bytes).primaryImage()
            #expect(primary.isMonochrome == name.contains("monochrome"), "\(name)")
            checked += 1
        }
        #expect(checked >= 5)
    }
}
