import Foundation
import H2JTestSupport
import Testing
@testable import H2JInspect
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

@Suite("inspect: text and JSON rendering")
struct InspectRenderingTests {
    static func properties() throws -> ImageProperties {
        let packet = ProvenanceMarkPackets.attributePacket()
        let jpeg = try JPEGTestSupport.encode(width: 24, height: 16, markers: [(0xE1, JPEGDescriberTests.exif), (0xE1, JPEGAPPSignature.xmp + packet)])
        return try ImageInspection.describe(MemoryByteSource(jpeg))
    }

    @Test("JSON: valid, typed values, escaped strings, the mark, sourceMatches only with --source")
    func json() throws {
        var outcome = InspectOutcome(file: "dir/\"odd\"\nname.jpg", properties: try Self.properties())
        var object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any])
        #expect(object["file"] as? String == "dir/\"odd\"\nname.jpg")
        #expect(object["format"] as? String == "jpeg")
        #expect(object["brands"] == nil && object["sourceMatches"] == nil)
        let exif = try #require(object["{Exif}"] as? [String: Any])
        #expect((exif["ExposureTime"] as? Double).map { abs($0 - 1.0 / 120) < 1e-12 } == true)
        #expect(exif["ISOSpeedRatings"] as? Int == 64)
        let provenance = try #require(object["provenance"] as? [String: Any])
        #expect(provenance["sourceName"] as? String == "IMG_0001 & co.HEIC")
        #expect(provenance["mode"] as? String == "keep")
        #expect(provenance["quality"] as? Int == 90)
        let primary = try #require(object["primary"] as? [String: Any])
        #expect((primary["orientation"] as? [String: Any])?["exif"] as? Int == 6)
        #expect(primary["transforms"] == nil, "JPEG has no HEIF transforms")

        outcome.sourceMatches = false
        object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? [String: Any])
        #expect(object["sourceMatches"] as? Bool == false)
        #expect(outcome.failed)

        let failure = InspectOutcome(file: "x.heic", error: "not a HEIF or JPEG image: looks like PNG")
        let failed = try #require(try JSONSerialization.jsonObject(with: Data(failure.json.utf8)) as? [String: Any])
        #expect(failed.keys.sorted() == ["error", "file"])
        #expect(failure.failed && failure.text.isEmpty)
    }

    @Test("Text: grouped, aligned, rationals and coordinates readable")
    func text() throws {
        var outcome = InspectOutcome(file: "a.jpg", properties: try Self.properties())
        outcome.sourceMatches = true
        let lines = outcome.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "a.jpg")
        #expect(lines.contains("  format              jpeg, \(EXIFText.bytes(outcome.properties!.byteSize)) bytes"))
        #expect(lines.contains("    ExposureTime      1/120"))
        #expect(lines.contains("    FNumber           1.6"))
        #expect(lines.contains("    Latitude          -22.951916"))
        #expect(lines.contains("    Altitude          -5"))
        #expect(lines.contains("  provenance          heic2jpg 0.1.0, keep, quality 90"))
        #expect(lines.contains("  --source            matches"))
    }

    @Test("Text: control characters from the file are shown escaped, never sent to the terminal")
    func controlCharacters() throws {
        var properties = try Self.properties()
        properties.exifGroups = [.init(name: "{TIFF}", fields: [.init(key: "Make", value: .text("Evil\u{1B}[2J\nCam\u{9B}era"))])]
        let text = InspectOutcome(file: "a\rb.jpg", properties: properties).text
        #expect(text.hasPrefix("a\\u{D}b.jpg\n"))
        #expect(text.contains("    Make              Evil\\u{1B}[2J\\u{A}Cam\\u{9B}era\n"))
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x0D || $0.value == 0x9B })
    }

    @Test("Decimals: rounded, trailing zeros dropped, never trapping on extreme values")
    func decimals() {
        #expect(InspectText.decimal(44.850477777777776, places: 6) == "44.850478")
        #expect(InspectText.decimal(-0.0000001, places: 6) == "0")
        #expect(InspectText.decimal(-1.5, places: 3) == "-1.5")
        #expect(InspectText.decimal(72, places: 3) == "72")
        #expect(InspectText.decimal(0.05, places: 3) == "0.05")
        #expect(InspectText.decimal(1e300, places: 6) == "1e+300")
        #expect(InspectText.decimal(.nan, places: 6) == "nan")
        #expect(InspectText.describe(.rational(TIFFRational(1, 0))) == "1/0")
        #expect(InspectText.describe(.rational(TIFFRational(1, 3))) == "1/3")
        #expect(InspectText.describe(.rational(TIFFRational(2, 3))) == "0.667")
    }
}
