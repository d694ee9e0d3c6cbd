import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JConvert
@testable import H2JMetadata
@testable import H2JSupport

/// The committed sample `exif-gps-usercomment-70k.heic` (Scripts/make-samples): a real
/// exiftool-written EXIF of 70 KB, nearly all of it a UNICODE UserComment.
@Suite("EXIF of the 70 KB UserComment sample")
struct EXIFSampleTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/exif-gps-usercomment-70k.heic").path

    /// The comment as make-samples writes it (35,100 characters).
    static let comment: String = {
        let lines = (0..<1000).map { n in
            "heic2jpg sample line \(String(repeating: "0", count: 5 - String(n).count) + String(n)): "
                + "a UserComment too long for one APP1, moved to XMP. Zürich.\n"
        }
        return String(lines.joined().prefix(35_100))
    }()

    /// The sample's `Exif` item as the converter reads it.
    func exifItem() throws -> [UInt8] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path)))
        let source = MemoryByteSource(bytes)
        let structure = try HEIFStructure.read(from: source)
        let primary = try structure.primaryImage()
        return try #require(try SourceMetadata(storedIn: structure, primary: primary.id, source: source).exif)
    }

    @Test("GPS stays in a valid EXIF of one APP1; the comment goes to XMP, whole")
    func commentMovesToXMP() throws {
        let item = try exifItem()
        #expect(item.count > 65_533)
        let source = try EXIFDirectory(heifExifItem: item)
        #expect(source.entry(.exif, EXIFTag.userComment)?.byteLength == 8 + 2 * 35_100)

        let result = EXIFForJPEG.make(fromHEIFExifItem: item, width: 256, height: 192,
                                      imageUniqueID: "00112233445566778899AABBCCDDEEFF")
        let payload = try #require(result.app1Payload)
        #expect(payload.count <= 65_533)
        let dir = try EXIFDirectory(app1Payload: payload)
        #expect(dir.unreadable.isEmpty)
        #expect(dir.entry(.exif, EXIFTag.userComment) == nil)
        #expect(dir.string(.gps, EXIFTag.gpsLatitudeRef) == "S" && dir.string(.gps, EXIFTag.gpsLongitudeRef) == "W")
        #expect(dir.rationals(.gps, EXIFTag.gpsLatitude) == source.rationals(.gps, EXIFTag.gpsLatitude))
        #expect(dir.rationals(.gps, EXIFTag.gpsLongitude) == source.rationals(.gps, EXIFTag.gpsLongitude))
        #expect(dir.string(.ifd0, EXIFTag.make) == "Heic2jpgSamples")
        #expect(dir.string(.exif, EXIFTag.dateTimeOriginal) == "2024:05:17 14:40:00")
        #expect(dir.string(.exif, EXIFTag.imageUniqueID) == "00112233445566778899AABBCCDDEEFF")

        #expect(result.movedToXMP == [XMPProperty(.exif, "UserComment", .languageAlternative(Self.comment))])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.hasPrefix("moved the 70,208-byte EXIF UserComment to XMP (exif:UserComment) to fit one APP1 (\(EXIFText.bytes(source.tiff.count + 6)) → ") == true)
    }

    @Test("exiftool finds the output EXIF valid, with GPS", .enabled(if: ExifTool.isAvailable, "exiftool is not installed"))
    func exiftoolValidates() throws {
        let result = EXIFForJPEG.make(fromHEIFExifItem: try exifItem(), width: 256, height: 192, requiredFields: true)
        let jpeg = EXIFTestSupport.jpeg(app1Payload: try #require(result.app1Payload))
        let tags = try ExifTool.tags(of: jpeg)
        #expect(tags["GPS:GPSLatitudeRef"] == "S" && tags["GPS:GPSLatitude"]?.hasPrefix("22.95191") == true)
        #expect(tags["ExifIFD:UserComment"] == nil)
        // The sample never had ExifImageWidth/Height; the required fields are added. Only
        // the probe file itself, which has no image data, draws warnings.
        let probe = ["Missing JPEG SOS", "JPEG format error"]
        let warnings = try ExifTool.validationWarnings(of: jpeg).filter { !probe.contains($0) }
        #expect(warnings.isEmpty, "\(warnings)")
    }
}
