import Foundation
import HEIC2JPGKit
import Testing

/// The acceptance run over `../shared/corpus` (real phone, camera, conformance and
/// broken files). Skipped, and reported as skipped, where the corpus is absent.
@Suite("End to end on ../shared/corpus", .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
struct CorpusEndToEndTests {
    /// HEIF files outside `bad/`, by content, relative to the corpus.
    static func goodFiles(_ corpus: String) -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: corpus)) ?? []
        return all.filter { relative in
            guard !relative.hasPrefix("bad/"), let handle = FileHandle(forReadingAtPath: corpus + "/" + relative) else { return false }
            defer { try? handle.close() }
            guard let prefix = try? handle.read(upToCount: 256) else { return false }
            return ImageFormat.sniff([UInt8](prefix)).isHEIF
        }.sorted()
    }

    static func badFiles(_ corpus: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus + "/bad")) ?? []).sorted().map { "bad/" + $0 }
    }

    func run(_ corpus: String, _ scratch: Scratch, _ extra: [String] = []) throws -> (Tool.Outcome, [String: [String: Any]]) {
        let outcome = try Tool.run(extra + ["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), corpus])
        var entries: [String: [String: Any]] = [:]
        for line in try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let source = object["source"] as? String {
                entries[String(source.dropFirst(corpus.count + 1))] = object
            }
        }
        return (outcome, entries)
    }

    @Test("keep mode: every good file converts correctly, every bad file fails with a reason, nothing stray")
    func keepMode() throws {
        let corpus = try #require(Tool.corpus)
        let scratch = Scratch()
        let (outcome, entries) = try run(corpus, scratch)
        #expect(outcome.status == 1, "bad/ files must make the run exit 1")
        let good = Self.goodFiles(corpus)
        #expect(good.count >= 15)
        for file in good {
            let output = scratch.sub("out/" + (file as NSString).deletingPathExtension + ".jpg")
            #expect(entries[file]?["status"] as? String == "converted", "\(file): \(entries[file]?["reason"] ?? "no result")")
            let problems = try OutputCheck.problems(source: corpus + "/" + file, output: output)
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
        for file in Self.badFiles(corpus) {
            #expect(entries[file]?["status"] as? String == "failed", "\(file) should fail")
            let reason = entries[file]?["reason"] as? String ?? ""
            #expect(reason.count > 10, "\(file): reason '\(reason)' does not name the problem")
        }
        let expected = good.map { ($0 as NSString).deletingPathExtension + ".jpg" }.sorted()
        #expect(scratch.files("out") == expected, "no stray, partial or temp files")
    }

    @Test("strip mode: no EXIF, XMP or GPS; ICC kept")
    func stripMode() throws {
        let corpus = try #require(Tool.corpus)
        let scratch = Scratch()
        let (_, entries) = try run(corpus, scratch, ["--metadata", "strip"])
        for file in Self.goodFiles(corpus) {
            let output = scratch.sub("out/" + (file as NSString).deletingPathExtension + ".jpg")
            #expect(entries[file]?["status"] as? String == "converted", "\(file)")
            let problems = try OutputCheck.problems(source: corpus + "/" + file, output: output, strip: true)
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
    }
}
