import H2JTestSupport
import Testing
@testable import H2JJPEG

/// A JPEG item's codestream with heic2jpg's segments in place of its own metadata
/// (`JPEGMarkerFilter.grafting`), and those segments collected as bytes.
@Suite("Grafting segments into a JPEG codestream")
struct JPEGGraftingTests {
    static let segment = JPEGTestSupport.segment
    static let jfif = segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let tables = segment(0xDB, [0] + [UInt8](repeating: 1, count: 64)) + segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1])
    static let scan: [UInt8] = [0xFF, 0xDA, 0, 2, 0x12, 0x34, 0xFF, 0xD9, 0xAB]

    static let codestream: [UInt8] = [0xFF, 0xD8] + jfif
        + segment(0xE1, Array("Exif\0\0MM".utf8))
        + segment(0xE1, JPEGAPPSignature.xmp + Array("<x/>".utf8))
        + segment(0xE2, JPEGAPPSignature.icc + [1, 1, 9])
        + segment(0xE2, Array("MPF\0".utf8) + [0, 0])
        + segment(0xED, Array("Photoshop 3.0\0".utf8))
        + segment(0xFE, Array("comment".utf8))
        + tables + scan

    @Test("JFIF first, then the graft's segments, then the codestream's other segments and its scan byte for byte")
    func keep() throws {
        let header = JPEGSegmentBytes()
        try header.writeMarker(0xE1, Array("Exif\0\0II".utf8))
        let out = JPEGMarkerFilter.grafting(header.bytes, into: try #require(JPEGSegments(Self.codestream)), strip: false)
        #expect(out == [0xFF, 0xD8] + Self.jfif + header.bytes + Self.segment(0xED, Array("Photoshop 3.0\0".utf8))
                + Self.segment(0xFE, Array("comment".utf8)) + Self.tables + Self.scan)
    }

    @Test("strip mode also drops IPTC and comments; APP14 (Adobe) and the tables stay")
    func strip() throws {
        let out = JPEGMarkerFilter.grafting([], into: try #require(JPEGSegments(Self.codestream)), strip: true)
        #expect(out == [0xFF, 0xD8] + Self.jfif + Self.tables + Self.scan)
    }

    @Test("an ICC profile is cut into numbered chunks that read back whole; oversized segments are refused")
    func iccChunks() throws {
        let profile = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let header = JPEGSegmentBytes()
        try header.writeICC(profile)
        let read = try #require(JPEGSegments([0xFF, 0xD8] + header.bytes + Self.scan))
        #expect(read.segments.count == 3 && read.iccProfile == profile)
        #expect(throws: JPEGSegmentError.self) { try header.writeMarker(0xE1, [UInt8](repeating: 0, count: 65_534)) }
        #expect(throws: JPEGSegmentError.self) { try header.writeMarker(0x01, []) }
        #expect(throws: JPEGSegmentError.self) { try header.writeICC([]) }
    }

    @Test("every truncation and random damage of a codestream either does not walk or grafts without a trap")
    func hostile() {
        var random = SeededGenerator("JPEGGraftingTests/hostile")
        for cut in 0..<Self.codestream.count {
            if let segments = JPEGSegments(Array(Self.codestream.prefix(cut))) { _ = JPEGMarkerFilter.grafting([], into: segments, strip: false) }
        }
        for _ in 0..<TestScale.iterations(2000) {
            var bytes = Self.codestream
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            if let segments = JPEGSegments(bytes) {
                _ = segments.frameHeader
                _ = JPEGMarkerFilter.grafting([0xFF, 0xFE, 0, 2], into: segments, strip: bytes.count % 2 == 0)
            }
        }
    }
}
