import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JJPEG

/// EXIF larger than one APP1, through the built binary: the Xiaomi corpus file (192 KB
/// EXIF) and the 70 KB UserComment sample.
@Suite("End to end: oversized EXIF fits one APP1")
struct EXIFFittingEndToEndTests {
    /// exiftool's validation warnings of `path`, one per line.
    func validationWarnings(_ path: String) throws -> Set<String> {
        let outcome = try ExifTool.run(["-validate", "-warning", "-a", "-s", "-s", path])
        return Set(outcome.stdoutText.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
            .map { String($0.dropFirst("Warning:".count)).trimmingCharacters(in: .whitespaces) })
    }

    /// Warnings exiftool gives only for JPEG files, whatever a HEIF source held: the
    /// tags EXIF requires in a JPEG, and IFD0 ImageWidth/ImageHeight, which it disallows there.
    /// Converts `source` and returns the output path and the report line's warnings.
    func convert(_ source: String, _ scratch: TemporaryDirectory) throws -> (String, [String]) {
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let line = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).split(separator: "\n").first ?? ""
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let stem = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        return (scratch.sub("out/\(stem).jpg"), object?["warnings"] as? [String] ?? [])
    }

    /// One `Exif` APP1 of at most 65,533 bytes; its payload.
    func singleEXIF(_ output: String) throws -> [UInt8] {
        let segments = try #require(JPEGSegments(path: output))
        let exif = segments.payloads(0xE1, prefix: "Exif\0\0")
        #expect(exif.count == 1)
        let payload = try #require(exif.first)
        #expect(payload.count <= 65_533)
        return payload
    }

    @Test("Xiaomi, 192 KB EXIF: one APP1, valid, with Make, Model, date, GPS and the thumbnail",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func xiaomi() throws {
        let source = try #require(Tool.corpus) + "/android/xiaomi-exif-192k.heic"
        let scratch = TemporaryDirectory()
        let (output, warnings) = try convert(source, scratch)
        _ = try singleEXIF(output)
        #expect(warnings.count == 1 && warnings[0].contains("to fit one APP1"), "\(warnings)")
        let src = try ExifTool.tags(atPath: source), out = try ExifTool.tags(atPath: output)
        for key in ["IFD0:Make", "IFD0:Model", "ExifIFD:DateTimeOriginal", "GPS:GPSLatitude", "GPS:GPSLatitudeRef",
                    "GPS:GPSLongitude", "GPS:GPSLongitudeRef", "GPS:GPSAltitude", "IFD1:ThumbnailLength"] {
            #expect(src[key] != nil, "\(key) in the source")
            #expect(out[key].map { "\($0)" } == src[key].map { "\($0)" }, "\(key)")
        }
        // The thumbnail fits, so it is kept whole.
        let thumbnail = try ExifTool.run(["-b", "-ThumbnailImage", output]).stdout
        #expect(thumbnail.count == 13_244 && thumbnail.starts(with: [0xFF, 0xD8]))
        let added = try validationWarnings(output).subtracting(validationWarnings(source))
        #expect(added.isEmpty, "\(added)")
    }

    @Test("70 KB UserComment sample: one valid APP1 with GPS; the comment moves, whole, to the XMP")
    func userComment() throws {
        let source = Tool.samples + "/exif-gps-usercomment-70k.heic"
        let scratch = TemporaryDirectory()
        let (output, warnings) = try convert(source, scratch)
        let payload = try singleEXIF(output)
        #expect(payload.count < 1_000)
        #expect(warnings == ["moved the 70,208-byte EXIF UserComment to XMP (exif:UserComment) to fit one APP1 (70,588 → 368 bytes)"])
        let out = try ExifTool.tags(atPath: output)
        #expect(out["GPS:GPSLatitudeRef"] as? String == "S" && out["GPS:GPSLongitudeRef"] as? String == "W")
        #expect(out["IFD0:Make"] as? String == "Heic2jpgSamples")
        #expect(out["ExifIFD:UserComment"] == nil)
        // The comment survives, whole, in the XMP.
        let comment = "\(try ExifTool.tags(atPath: source)["ExifIFD:UserComment"] ?? "")"
        #expect(comment.utf8.count > 35_000)
        #expect("\(out["XMP-exif:UserComment"] ?? "")" == comment)
        let added = try validationWarnings(output).subtracting(validationWarnings(source))
        #expect(added.isEmpty, "\(added)")
    }
}
