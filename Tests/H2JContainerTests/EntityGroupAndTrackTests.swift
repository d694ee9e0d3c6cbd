import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// `grpl` entity groups and `moov` tracks: what a file holds beyond its items.
@Suite("Entity groups and sequence tracks")
struct EntityGroupAndTrackTests {
    typealias B = BoxBuilder

    static func group(_ type: String, id: Int, _ entities: [Int]) -> [UInt8] {
        B.box(type, B.fullBox(0) + B.u32(id) + B.u32(entities.count) + entities.flatMap { B.u32($0) })
    }

    /// A `trak` with a `tkhd` (version 0, the ID, 16.16 width and height at its end), and
    /// `mdia` holding `hdlr` and `minf/stbl/stsz` with `samples` samples.
    static func track(id: Int, handler: String, samples: Int?, width: Int = 0, height: Int = 0) -> [UInt8] {
        let tkhd = B.box("tkhd", B.fullBox(0) + B.u32(0) + B.u32(0) + B.u32(id) + B.u32(0) + B.u32(0)
                         + [UInt8](repeating: 0, count: 52) + B.u32(width << 16) + B.u32(height << 16))
        let hdlr = B.box("hdlr", B.fullBox(0) + B.u32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        let stbl = B.box("stbl", samples.map { B.box("stsz", B.fullBox(0) + B.u32(0) + B.u32($0)) } ?? [])
        return B.box("trak", tkhd + B.box("mdia", hdlr + B.box("minf", stbl)))
    }

    static func structure(groups: [[UInt8]] = [], moov: [UInt8]? = nil) throws -> HEIFStructure {
        let meta = B.meta(primary: 1, items: [(1, "hvc1"), (2, "hvc1")],
                          extraBoxes: groups.isEmpty ? [] : [B.box("grpl", groups.flatMap { $0 })])
        return try HEIFStructure.read(from: MemoryByteSource(B.ftyp + meta + (moov.map { B.box("moov", $0) } ?? [])))
    }

    @Test("Groups keep their type, ID and entities in order; one whose count runs past its box is skipped and counted")
    func groups() throws {
        let structure = try Self.structure(groups: [Self.group("ster", id: 10, [1, 2]), Self.group("altr", id: 11, [2, 1]),
                                                    B.box("brst", B.fullBox(0) + B.u32(12) + B.u32(1_000_000) + B.u32(1))])
        #expect(structure.entityGroups == [EntityGroup(type: "ster", id: 10, entities: [1, 2]),
                                           EntityGroup(type: "altr", id: 11, entities: [2, 1])])
        #expect(structure.unreadableGroups == 1)
        #expect(try Self.structure().entityGroups.isEmpty)
    }

    @Test("Tracks give their ID, handler, size and frame count; the conversion warning counts the frames")
    func tracks() throws {
        let moov = B.box("mvhd", B.fullBox(0) + [UInt8](repeating: 0, count: 96))
            + Self.track(id: 1, handler: "pict", samples: 60, width: 1280, height: 720)
            + Self.track(id: 2, handler: "soun", samples: 90)
            + Self.track(id: 3, handler: "vide", samples: nil)
        let structure = try Self.structure(moov: moov)
        #expect(structure.hasImageSequence)
        #expect(structure.sequenceTracks == [SequenceTrack(id: 1, handler: "pict", samples: 60, width: 1280, height: 720),
                                             SequenceTrack(id: 2, handler: "soun", samples: 90, width: 0, height: 0),
                                             SequenceTrack(id: 3, handler: "vide", samples: nil, width: 0, height: 0)])
        let warning = try #require(HEIFStructure.contentNotConvertedWarning(structure.contentNotCarried().map(\.phrase)))
        #expect(warning.code == .contentNotConverted)
        #expect(warning.message == "not converted: 1 more image (#2), 2 image sequences (60, ? frames)")
        let one = try Self.structure(moov: Self.track(id: 1, handler: "pict", samples: 1))
        #expect(one.contentNotCarried().last?.phrase == "an image sequence of 1 frame")
    }

    @Test("A file of image sequences and no still image is refused as such, its frames counted; without 'moov' either, 'meta' is missing")
    func sequenceOnly() {
        let moov = B.box("moov", Self.track(id: 1, handler: "pict", samples: 16) + Self.track(id: 2, handler: "pict", samples: 8))
        #expect(throws: HEIFError.imageSequenceOnly("2 image sequences (16, 8 frames)")) {
            try HEIFStructure.read(from: MemoryByteSource(B.ftyp + moov + B.box("mdat", [])))
        }
        #expect(HEIFError.imageSequenceOnly("an image sequence of 16 frames").description
            == "an image sequence of 16 frames and no still image (no 'meta' box): heic2jpg converts still images only")
        #expect(throws: HEIFError.missingBox("meta")) { try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.box("mdat", []))) }
    }

    @Test("A moov of cut boxes still says there is a sequence; every truncation of one parses without trapping")
    func hostileTracks() throws {
        let moov = Self.track(id: 7, handler: "pict", samples: 5, width: 64, height: 64)
        for cut in 0...moov.count {
            _ = SequenceTrack.parseTracks(moov: Array(moov.prefix(cut)))
        }
        let broken = try Self.structure(moov: Array(moov.prefix(20)))
        #expect(broken.hasImageSequence && broken.contentNotCarried().map(\.phrase).contains("an image sequence"))
        // A cut group box (a header and less than its body) is skipped and counted; the image stays readable.
        let group = Self.group("ster", id: 1, [1, 2])
        for cut in 8..<group.count {
            let structure = try Self.structure(groups: [Array(group.prefix(cut))])
            #expect(structure.entityGroups.isEmpty && structure.unreadableGroups == 1, "cut at \(cut)")
        }
    }
}

/// Images coded in something heic2jpg does not decode are refused by name.
@Suite("Codecs heic2jpg does not decode")
struct UnsupportedCodecTests {
    typealias B = BoxBuilder

    @Test("AVC, VVC and JPEG 2000 primaries, a grid of VVC tiles and a JPEG or unci input of a tmap fail naming the codec; HEVC, AV1, JPEG and unci images, and grids, overlays and idens of them, pass")
    func named() throws {
        for (type, name) in [("avc1", "AVC (H.264, 'avc1')"), ("vvc1", "VVC (H.266, 'vvc1')"), ("j2k1", "JPEG 2000 ('j2k1')")] {
            let structure = try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(primary: 1, items: [(1, type)])))
            #expect(throws: HEIFError.unsupportedCodec(item: 1, type: type)) { try structure.checkCodecs() }
            #expect(HEIFError.unsupportedCodec(item: 1, type: type).description
                    == "item 1 is \(name): heic2jpg decodes HEVC, AV1, JPEG and uncompressed images only")
        }
        let grid = try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(
            primary: 1, items: [(1, "grid"), (2, "vvc1"), (3, "vvc1")], references: [B.reference("dimg", from: 1, to: [2, 3])])))
        #expect(throws: HEIFError.unsupportedCodec(item: 3, type: "vvc1")) { try grid.checkCodecs() }
        for (type, name) in [("jpeg", "a JPEG ('jpeg' item)"), ("unci", "uncompressed (ISO/IEC 23001-17, 'unci')")] {
            // heic2jpg composes grids, overlays and idens of them itself (`isComposed`).
            for derived in ["grid", "iovl", "iden"] {
                try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(
                    primary: 1, items: [(1, derived), (2, type)], references: [B.reference("dimg", from: 1, to: [2])]))).checkCodecs()
            }
            // The tmap is checked as an image of its own: a pitm naming it would make its base the photo.
            let tmap = try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(
                primary: 3, items: [(1, "tmap"), (2, type), (3, "hvc1")], references: [B.reference("dimg", from: 1, to: [3, 2])])))
            #expect(throws: HEIFError.unsupportedDerivedInput(item: 2, type: type)) { try tmap.checkCodecs(of: 1) }
            #expect(HEIFError.unsupportedDerivedInput(item: 2, type: type).description
                    == "item 2 is \(name) used as an input of a derived image heic2jpg does not compose: heic2jpg decodes those only "
                    + "as images of their own or in the overlays, identity derivations and grids it composes")
        }
        for type in ["hvc1", "av01", "jpeg", "unci"] {
            try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(primary: 1, items: [(1, type)]))).checkCodecs()
        }
    }
}

/// PQ and HLG images are named, so that they are tone-mapped and their HDR rendition counted.
@Suite("HDR transfer")
struct HDRTransferNameTests {
    typealias B = BoxBuilder

    @Test("PQ and HLG primaries are named; sRGB and no nclx are not; the HDR rendition is content of its own")
    func transfers() throws {
        func structure(transfer: Int?) throws -> HEIFStructure {
            let colr = transfer.map { [B.colr(primaries: 9, transfer: $0, matrix: 9, fullRange: true)] } ?? []
            return try HEIFStructure.read(from: MemoryByteSource(B.ftyp + B.meta(
                primary: 1, items: [(1, "av01")], properties: colr, associations: colr.isEmpty ? [] : [(1, [1])])))
        }
        #expect(try structure(transfer: 16).hdrTransferName() == "PQ")
        #expect(try structure(transfer: 18).hdrTransferName() == "HLG")
        #expect(try structure(transfer: 13).hdrTransferName() == nil)
        #expect(try structure(transfer: nil).hdrTransferName() == nil)
        let pq = try structure(transfer: 16)
        #expect(pq.contentNotCarried().map(\.kind) == [.hdrRendition])
        #expect(pq.contentNotCarried(hdrCarried: true).isEmpty)
        #expect(try structure(transfer: 13).contentNotCarried().isEmpty)
    }
}
