import Foundation
import H2JTestSupport
import Testing

/// The converter's stages as the user sees them: libheif reading through the same
/// descriptor or stdin bytes as the tile engine, failures with their code and the engine
/// that was running, warnings with their codes.
@Suite("End to end: engines, error codes and warning codes")
struct EngineAndErrorEndToEndTests {
    /// The report's per-file objects.
    static func entries(_ report: String) throws -> [[String: Any]] {
        try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["summary"] == nil }
    }

    @Test("libheif's engine reads stdin's bytes: a 10-bit sample through '-' matches the same file by path")
    func libheifFromStandardInput() throws {
        let path = Tool.samples + "/10bit-gradient.heic"
        let input = try #require(FileManager.default.contents(atPath: path))
        let scratch = TemporaryDirectory()
        let streamed = try Tool.run(["-", "-o", "-", "--no-mark"], stdin: input)
        #expect(streamed.status == 0, "\(streamed.stderr)")
        let byPath = try Tool.run(["-o", scratch.sub("out"), "--no-mark", "--report", scratch.sub("r.jsonl"), path])
        #expect(byPath.status == 0, "\(byPath.stderr)")
        #expect(try Self.entries(scratch.sub("r.jsonl")).first?["engine"] as? String == "libheif")
        let written = try #require(FileManager.default.contents(atPath: scratch.sub("out/10bit-gradient.jpg")))
        #expect(streamed.stdout == written, "the same bytes whether libheif read the file or stdin")
        #expect(FileManager.default.createFile(atPath: scratch.sub("stdin.jpg"), contents: streamed.stdout))
        #expect(try OutputCheck.problems(source: path, output: scratch.sub("stdin.jpg")).isEmpty)
    }

    @Test("A failure after the engine is chosen keeps the engine; failures carry their code")
    func failureCodes() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/tiny.heic", [UInt8](try #require(FileManager.default.contents(atPath: Tool.samples + "/monochrome.heic"))))
        scratch.file("in/libheif.heic", [UInt8](try #require(FileManager.default.contents(atPath: Tool.samples + "/10bit-gradient.heic"))))
        scratch.file("in/notes.heic", Array("not an image".utf8))
        // The output root is a file: both images are parsed and their engines chosen,
        // then publishing fails.
        let blocked = try Tool.run(["-o", scratch.sub("in/tiny.heic"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(blocked.status == 1)
        let byName = Dictionary(uniqueKeysWithValues: try Self.entries(scratch.sub("r.jsonl")).map {
            (($0["source"] as? String).map { String($0.split(separator: "/").last!) } ?? "", $0)
        })
        #expect(byName["notes.heic"]?["errorCode"] as? String == "not-heif")
        for name in ["tiny.heic", "libheif.heic"] {
            let entry = try #require(byName[name], "\(byName.keys)")
            #expect(entry["status"] as? String == "failed")
            #expect(entry["errorCode"] as? String == "write-failed", "\(entry)")
            #expect(entry["engine"] as? String == (name == "tiny.heic" ? "tiles" : "libheif"), "\(entry)")
            #expect((entry["reason"] as? String)?.contains("exists and is not a directory") == true, "\(entry)")
        }
    }

    @Test("Warnings come with one code each, in the same order")
    func warningCodes() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"),
                                    Tool.samples + "/exif-gps-usercomment-70k.heic"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try Self.entries(scratch.sub("r.jsonl")).first)
        let warnings = try #require(entry["warnings"] as? [String])
        #expect(entry["warningCodes"] as? [String] == ["exif-moved-to-xmp"])
        #expect(warnings.count == 1 && warnings[0].hasPrefix("moved the 70,208-byte EXIF UserComment to XMP"))
        #expect(entry["errorCode"] is NSNull)
    }
}
