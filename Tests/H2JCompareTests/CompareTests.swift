import Foundation
import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JCompare
@testable import H2JConvert
@testable import H2JSupport

@Suite("compare: Y-PSNR, EXIF tag tally, metadata read back from JPEG segments")
struct CompareTests {
    // MARK: Y-PSNR

    /// Y-PSNR of two pictures given as rows of interleaved samples.
    static func psnr(_ reference: [[UInt8]], components: Int, _ test: [[UInt8]], components testComponents: Int) -> Double {
        var psnr = LumaPSNR()
        for (a, b) in zip(reference, test) {
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    psnr.add(reference: a.baseAddress!, components: components, test: b.baseAddress!,
                             components: testComponents, width: a.count / components)
                }
            }
        }
        return psnr.decibels
    }

    /// A 4×3 RGB picture with varied samples.
    static let picture: [[UInt8]] = (0..<3).map { (y: Int) -> [UInt8] in (0..<12).map { (x: Int) -> UInt8 in UInt8(20 * x + 7 * y) } }

    @Test("Identical pictures: infinite, shown as inf in text and null in JSON")
    func identical() {
        let value = Self.psnr(Self.picture, components: 3, Self.picture, components: 3)
        #expect(value == .infinity)
        #expect(CompareText.decibels(value) == "inf")
        var line = JSONLine()
        line.add("yPSNR", value)
        #expect(line.text == #"{"yPSNR":null}"#)
    }

    @Test("Every sample 5 higher: luma 5 higher, 20·log10(255/5) = 34.15 dB")
    func uniformOffset() {
        let brighter = Self.picture.map { $0.map { $0 + 5 } }
        let value = Self.psnr(Self.picture, components: 3, brighter, components: 3)
        #expect(abs(value - 20 * log10(255.0 / 5)) < 1e-9)
        #expect(CompareText.decibels(value) == "34.15 dB")
    }

    @Test("Only red off by 10 in half the pixels: ΔY = 2.99 there, MSE = 2.99² / 2")
    func weightedOffset() {
        var test = Self.picture
        for y in 0..<test.count {
            for x in 0..<2 { test[y][3 * x] += 10 }  // pixels 0 and 1 of 4 in each row
        }
        let value = Self.psnr(Self.picture, components: 3, test, components: 3)
        let expected = 10 * log10(255.0 * 255 / (2.99 * 2.99 / 2))
        #expect(abs(value - expected) < 1e-9, "\(value) vs \(expected)")
    }

    @Test("A gray picture and its RGB replica have identical luma; gray off by 1 gives 48.13 dB")
    func grayAgainstRGB() {
        let gray: [[UInt8]] = [[0, 17, 128, 255], [1, 2, 3, 250]]
        let rgb = gray.map { $0.flatMap { [$0, $0, $0] } }
        #expect(Self.psnr(gray, components: 1, rgb, components: 3) == .infinity)
        let off = gray.map { $0.map { $0 == 255 ? 254 : $0 + 1 } }
        #expect(abs(Self.psnr(gray, components: 1, off, components: 1) - 48.1308) < 1e-4)
    }

    // MARK: EXIF tag tally

    static func keys(_ tiff: EXIFTestTIFF) throws -> Set<EXIFTagKey> {
        try EXIFDirectory(tiff: tiff.build().bytes).tagKeys
    }

    @Test("Tags are counted by (IFD, tag) over IFD0, ExifIFD, GPS, Interop and IFD1, pointers included")
    func tagKeys() throws {
        let keys = try Self.keys(.typical())
        // IFD0: 7 + ExifIFD and GPS pointers; ExifIFD: 4 + Interop pointer; Interop: 1; GPS: 4;
        // IFD1: 3 + thumbnail offset and length.
        #expect(keys.count == 9 + 5 + 1 + 4 + 5)
        #expect(keys.contains(EXIFTagKey(ifd: .gps, tag: EXIFTag.gpsLatitude)))
        #expect(keys.contains(EXIFTagKey(ifd: .ifd1, tag: EXIFTag.orientation)))
        #expect(keys.contains(EXIFTagKey(ifd: .ifd0, tag: EXIFTag.orientation)))
    }

    @Test("A tag repeated in one IFD counts once")
    func repeatedTag() throws {
        var tiff = EXIFTestTIFF.typical()
        tiff.ifd0.append(.init(EXIFTag.make, .ascii("Again")))
        #expect(try Self.keys(tiff) == Self.keys(.typical()))
    }

    @Test("Kept, dropped and added against the source")
    func tally() throws {
        let source = try Self.keys(.typical())
        var withoutGPS = EXIFTestTIFF.typical()
        withoutGPS.gps = nil
        withoutGPS.exif?.append(.init(0xA420, .ascii("0123456789abcdef0123456789abcdef")))  // ImageUniqueID
        let tally = EXIFTagTally(source: source, output: try Self.keys(withoutGPS))
        #expect(tally.source == 24 && tally.output == 20)
        #expect(tally.dropped == 5, "four GPS tags and the GPS pointer")
        #expect(tally.kept == 19)
        #expect(tally.added == 1)
        let none = EXIFTagTally(source: source, output: [])
        #expect(none.kept == 0 && none.dropped == 24 && none.added == 0)
    }

    // MARK: Metadata read back from a JPEG

    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] { JPEGTestSupport.segment(marker, body) }
    static let makerNote = Array("Apple iOS\u{0}MAKERNOTE-DATA-0123456789".utf8)
    static let xmp = Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8)
    static let profile: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 13) }

    /// A JPEG header with EXIF, XMP and an ICC profile in two APP2 chunks, stored out of order.
    static var jpeg: [UInt8] {
        let icc = JPEGAPPSignature.icc
        return [0xFF, 0xD8]
            + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xE1, JPEGAPPSignature.exif + EXIFTestTIFF.typical(bigEndian: true).build().bytes)
            + segment(0xE1, JPEGAPPSignature.xmp + xmp)
            + segment(0xE2, icc + [2, 2] + profile[200...])
            + segment(0xE2, icc + [1, 2] + profile[..<200])
            + [0xFF, 0xDA, 0, 2, 0x12, 0x34, 0xFF, 0xD9]
    }

    @Test("EXIF, GPS, maker note, XMP and ICC are read back from the segments")
    func summaryOfJPEG() {
        let summary = MetadataSummary(jpeg: Self.jpeg)
        #expect(summary.exif && summary.exifProblem == nil)
        #expect(summary.exifTags.count == 24)
        #expect(summary.gpsTags == 4)
        #expect(summary.makerNoteBytes == Self.makerNote.count)
        #expect(summary.xmpBytes == Self.xmp.count)
        #expect(summary.iccBytes == Self.profile.count)
        #expect(JPEGSegments(Self.jpeg)?.iccProfile == Self.profile, "chunks reassembled in sequence order")
        let plain = MetadataSummary(jpeg: [0xFF, 0xD8] + Self.segment(0xDB, [0]) + [0xFF, 0xDA, 0, 2])
        #expect(plain == MetadataSummary(exif: nil, xmp: nil, icc: nil))
    }

    @Test("ICC chunks that do not number 1…count exactly once give no profile")
    func inconsistentICC() {
        let icc = JPEGAPPSignature.icc
        func profile(_ chunks: [[UInt8]]) -> [UInt8]? {
            JPEGSegments([0xFF, 0xD8] + chunks.flatMap { Self.segment(0xE2, icc + $0) } + [0xFF, 0xDA, 0, 2])?.iccProfile
        }
        #expect(profile([[1, 1, 9, 9]]) == [9, 9])
        #expect(profile([[1, 2, 9]]) == nil, "chunk 2 missing")
        #expect(profile([[1, 2, 9], [1, 2, 8]]) == nil, "chunk 1 twice")
        #expect(profile([[1, 2, 9], [2, 3, 8]]) == nil, "counts disagree")
        #expect(profile([[0, 1, 9]]) == nil, "sequence numbers start at 1")
        #expect(profile([[1]]) == nil, "no count byte")
    }

    @Test("Unreadable EXIF is reported, not thrown; truncated JPEGs never trap")
    func hostile() {
        let broken = [0xFF, 0xD8] + Self.segment(0xE1, JPEGAPPSignature.exif + [0x49, 0x49, 0x2A, 0, 0xFF, 0xFF, 0xFF, 0x7F])
            + [0xFF, 0xDA, 0, 2]
        let summary = MetadataSummary(jpeg: broken)
        #expect(summary.exif && summary.exifProblem != nil && summary.exifTags.isEmpty)
        let jpeg = Self.jpeg
        for length in 0..<jpeg.count {
            _ = MetadataSummary(jpeg: Array(jpeg.prefix(length)))
        }
        #expect(MetadataSummary(jpeg: Array(jpeg.prefix(40))).exifProblem != nil, "header walk fails before SOS")
    }
}
