import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JConvert
@testable import H2JSupport

/// Real JPEG files written through `JPEGMarkers` and `JPEGWriter`, read back by exiftool.
@Suite("XMP in a JPEG file: standard and Extended XMP as exiftool reads them")
struct XMPInJPEGFileTests {
    typealias S = XMPTestSupport

    /// The metadata `SourceMetadata` reads from a HEIF whose XMP item is `packet`.
    static func sourceMetadata(xmp packet: [UInt8]) throws -> SourceMetadata {
        let source = MemoryByteSource(S.heif(xmp: packet))
        let structure = try HEIFStructure.read(from: source)
        return try SourceMetadata(storedIn: structure, primary: 1, source: source)
    }

    /// A 16×16 JPEG with `markers`, written to a file in `directory`.
    static func jpeg(_ markers: JPEGMarkers, in directory: TemporaryDirectory) throws -> (path: String, bytes: [UInt8]) {
        let planes = SyntheticPlanes(width: 16, height: 16, components: 3)
        let bytes = try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: 16, height: 16, components: 3, quality: 90)
            try markers.write(to: writer)
            try planes.writeRaw(to: writer, chunk: 16)
            try writer.finish()
        }
        return (directory.file("out.jpg", bytes), bytes)
    }

    /// The APP segments: marker, payload.
    static func appSegments(_ jpeg: [UInt8]) -> [(marker: UInt8, payload: ArraySlice<UInt8>)] {
        (JPEGSegments(jpeg)?.segments ?? []).filter { (0xE0...0xEF).contains($0.marker) }.map { ($0.marker, jpeg[$0.payload]) }
    }

    /// The provenance mark `S.mark()` describes.
    static let mark = ProvenanceMark(sourceName: "IMG_0001.HEIC", sourceSHA256: String(repeating: "ab", count: 32), mode: .keep,
                                     quality: 90, version: "test")

    @Test("Keep mode: an oversized EXIF UserComment moves to XMP, exiftool reassembles the Extended XMP, -validate has nothing to say about the XMP")
    func keepMode() throws {
        let packet = Array(ExtendedXMPTests.source(history: 20_000, description: 500).utf8)
        // An EXIF whose UNICODE UserComment (UTF-16, about 140 KB) cannot fit one APP1.
        var tiff = EXIFTestTIFF.typical()
        tiff.ifd1 = nil
        tiff.thumbnail = nil
        let units = EXIFTestTIFF.utf16(ExtendedXMPTests.longComment, bigEndian: false)
        tiff.exif!.append(EXIFTestTIFF.Entry(EXIFTag.userComment, .undefined(Array("UNICODE\u{0}".utf8) + units)))
        var source = try Self.sourceMetadata(xmp: packet)
        source.exif = EXIFTestSupport.heifItem(tiff: tiff.build().bytes)
        let markers = JPEGMarkers(source: source, mode: .keep, mark: Self.mark, width: 16, height: 16)
        #expect(markers.warnings.contains { $0.message.hasPrefix("moved the ") && $0.message.contains("EXIF UserComment to XMP") }, "\(markers.warnings)")
        #expect(markers.warnings.contains { $0.message.contains("moved exif:UserComment") && $0.message.contains("to Extended XMP") }, "\(markers.warnings)")
        #expect(markers.kept == MetadataKept(exif: true, xmp: true, icc: false), "\(markers.warnings)")
        let directory = TemporaryDirectory()
        let (path, bytes) = try Self.jpeg(markers, in: directory)

        // APP0 JFIF, the EXIF, the standard XMP, then its two extended segments.
        let segments = Self.appSegments(bytes)
        try #require(segments.map(\.marker) == [0xE0, 0xE1, 0xE1, 0xE1, 0xE1])
        #expect(segments[1].payload.starts(with: JPEGAPPSignature.exif))
        #expect(segments[2].payload.starts(with: JPEGAPPSignature.xmp))
        #expect(Array(segments[3].payload) == markers.extendedXMP[0] && Array(segments[4].payload) == markers.extendedXMP[1])
        #expect(segments[3].payload.count == 65_533)

        let tags = try S.exiftool(file: path)
        // EXIF pads comments with spaces; the moved value drops that padding.
        #expect(tags["XMP-exif:UserComment"] == ExtendedXMPTests.longComment.trimmingCharacters(in: .whitespaces))
        #expect(tags["XMP-exif:UserComment"]?.utf8.count ?? 0 > 70_000)
        #expect(tags["XMP-photoshop:History"] == String(repeating: "h", count: 20_000))
        #expect(tags["XMP-h2j:SourceName"] == "IMG_0001.HEIC" && tags["XMP-h2j:Quality"] == "90")
        #expect(tags["XMP-xmpNote:HasExtendedXMP"] == S.reassemble(markers.extendedXMP)?.guid)
        #expect(tags["XMP-tiff:Orientation"] == "Horizontal (normal)")
        let exif = try EXIFDirectory(app1Payload: try #require(markers.exif))
        #expect(exif.string(.exif, 0xA420) == Self.mark.imageUniqueID)
        #expect(exif.entry(.exif, EXIFTag.userComment) == nil)
        let validation = String(decoding: try ExifTool.output(["-validate", "-warning", "-error", "-a", "-G1", path]), as: UTF8.self)
        // The synthetic EXIF lacks tags a JPEG's EXIF requires; the XMP must draw no warning.
        #expect(validation.contains("Validate") && !validation.contains("Error"), "\(validation.prefix(2000))")
        #expect(!validation.contains("XMP"), "\(validation.prefix(2000))")
    }

    @Test("Strip mode: no source XMP, only what is added; nothing added, no XMP")
    func stripMode() throws {
        let source = try Self.sourceMetadata(xmp: Array(XMPInsertionTests.severalDescriptions.utf8))
        let marked = JPEGMarkers(source: source, mode: .strip, mark: Self.mark, width: 16, height: 16)
        #expect(marked.warnings.isEmpty && marked.extendedXMP.isEmpty)
        let directory = TemporaryDirectory()
        let tags = try S.exiftool(file: try Self.jpeg(marked, in: directory).path)
        #expect(tags["XMP-h2j:Mode"] == "lossless-metadata" && tags["XMP-h2j:SourceSHA256"] == String(repeating: "ab", count: 32))
        #expect(tags["XMP-dc:Title"] == nil && tags["XMP-exif:ExposureTime"] == nil)
        let plain = JPEGMarkers(source: source, mode: .strip, width: 16, height: 16)
        #expect(plain.xmp == nil && plain.extendedXMP.isEmpty)
        #expect(Self.appSegments(try Self.jpeg(plain, in: directory).bytes).map(\.marker) == [0xE0])
    }
}
