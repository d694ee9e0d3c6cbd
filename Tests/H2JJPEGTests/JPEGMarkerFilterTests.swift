import H2JTestSupport
import Testing
@testable import H2JJPEG

@Suite("JPEG marker filtering for copied JPEGs")
struct JPEGMarkerFilterTests {
    static let segment = JPEGTestSupport.segment

    static let jpeg: [UInt8] = [0xFF, 0xD8]
        + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        + segment(0xE1, Array("Exif\0\0MM".utf8))
        + segment(0xE1, JPEGAPPSignature.xmp + Array("<x/>".utf8))
        + segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1, 9])
        + segment(0xED, Array("Photoshop 3.0\0".utf8))
        + segment(0xFE, Array("comment".utf8))
        + segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        + [0xFF, 0xDA, 0, 2, 0x12, 0x34, 0xFF, 0xD9]

    @Test("Strip mode drops EXIF, XMP, IPTC and comments; keeps JFIF, ICC and the scan")
    func strip() {
        let out = JPEGMarkerFilter.strippingMetadata(from: Self.jpeg)
        let expected: [UInt8] = [0xFF, 0xD8]
            + Self.segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
            + Self.segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1, 9])
            + Self.segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
            + [0xFF, 0xDA, 0, 2, 0x12, 0x34, 0xFF, 0xD9]
        #expect(out == expected)
        #expect(JPEGMarkerFilter.metadataPresent(in: out) == .init(exif: false, xmp: false, icc: true))
        #expect(JPEGMarkerFilter.metadataPresent(in: Self.jpeg) == .init(exif: true, xmp: true, icc: true))
    }

    @Test("Malformed structure is left untouched")
    func malformed() {
        let broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 1, 2]
        #expect(JPEGMarkerFilter.strippingMetadata(from: broken) == broken)
        #expect(JPEGMarkerFilter.strippingMetadata(from: []) == [])
    }
}
