import Foundation
import H2JTestSupport
import Testing
@testable import H2JMetadata
@testable import H2JSupport

/// The headroom of Apple's HDR gain maps: XMP first, else the maker note's tags 33 and 48.
@Suite("Apple HDR headroom")
struct AppleHDRHeadroomTests {
    /// An Apple maker note (`Apple iOS\0`, version, `MM`, an IFD at 14 with offsets from
    /// the note's start) holding signed rationals for the given tags.
    static func makerNote(_ tags: [(UInt16, Int32, Int32)]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { BoxBuilder.u16(v) }
        func u32(_ v: Int) -> [UInt8] { BoxBuilder.u32(v) }
        var note = Array("Apple iOS\0".utf8) + u16(1) + Array("MM".utf8) + u16(tags.count)
        let dataStart = 16 + 12 * tags.count + 4
        var data: [UInt8] = []
        for (tag, n, d) in tags {
            note += u16(Int(tag)) + u16(10) + u32(1) + u32(dataStart + data.count)
            data += u32(Int(UInt32(bitPattern: n))) + u32(Int(UInt32(bitPattern: d)))
        }
        return note + u32(0) + data
    }

    static func exif(makerNote: [UInt8]) -> [UInt8] {
        var tiff = EXIFTestTIFF.typical(bigEndian: true)
        tiff.exif = [EXIFTestTIFF.Entry(EXIFTag.makerNote, .undefined(makerNote))]
        return tiff.build().bytes
    }

    @Test("The four branches of the maker-note rule")
    func stops() {
        #expect(AppleHDRHeadroom.stops(m33: 0.5, m48: 0) == 1.8)
        #expect(abs(AppleHDRHeadroom.stops(m33: 0.5, m48: 1) - 1.5) < 1e-12)
        #expect(AppleHDRHeadroom.stops(m33: 1.2, m48: 0) == 3)
        #expect(abs(AppleHDRHeadroom.stops(m33: 1.01, m48: 2.021582126) - 1.69047) < 1e-4)
    }

    @Test("XMP wins; else the maker note (tag 48 missing counts as 0); else nothing")
    func sources() throws {
        let note = Self.exif(makerNote: Self.makerNote([(0x0021, 22307, 25388)]))
        let fromNote = try #require(AppleHDRHeadroom.headroom(gainMapXMP: nil, primaryEXIF: note))
        #expect(fromNote.origin == .makerNote && abs(fromNote.value - Math.exp2(1.8)) < 1e-9)
        let both = Self.exif(makerNote: Self.makerNote([(0x0021, 101, 100), (0x0030, 2_021_582, 1_000_000)]))
        #expect(abs((AppleHDRHeadroom.headroom(gainMapXMP: nil, primaryEXIF: both)?.value ?? 0) - 3.2275) < 1e-3)
        let xmp = Array(#"<rdf:Description xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/" HDRGainMap:HDRGainMapHeadroom="3.227528"/>"#.utf8)
        let fromXMP = try #require(AppleHDRHeadroom.headroom(gainMapXMP: xmp, primaryEXIF: note))
        #expect(fromXMP.origin == .xmp && fromXMP.value == 3.227528)
        #expect(AppleHDRHeadroom.headroom(gainMapXMP: nil, primaryEXIF: Self.exif(makerNote: Array("Canon".utf8))) == nil)
        #expect(AppleHDRHeadroom.headroom(gainMapXMP: nil, primaryEXIF: nil) == nil)
        // A cut maker note never traps.
        let full = Self.makerNote([(0x0021, 1, 1), (0x0030, 1, 1)])
        for cut in 0..<full.count { _ = AppleHDRHeadroom.headroom(gainMapXMP: nil, primaryEXIF: Self.exif(makerNote: Array(full.prefix(cut)))) }
    }
}
