import Foundation
import H2JTestSupport
import Testing

/// A taken-over worker (the debug build's `HostileWorker`, chosen by
/// `HEIC2JPG_TEST_HOSTILE_WORKER`) answers with crafted frames; the parent refuses each:
/// the source fails, as the job's own source, and nothing the worker said is applied.
@Suite("End to end: a hostile worker's words are refused")
struct HostileWorkerEndToEndTests {
    @Test("Each crafted answer fails the source and applies nothing", arguments: [
        "attributes", "output-path", "unstaged-output", "other-source", "huge-count", "huge-frame", "truncated-frame",
    ])
    func refused(hostile: String) throws {
        let scratch = TemporaryDirectory()
        let source = scratch.sub("in/photo.heic")
        scratch.file("in/photo.heic", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic"))))
        chmod(source, 0o640)
        let outcome = try Tool.run(["HEIC2JPG_TEST_HOSTILE_WORKER=\(hostile)", Tool.binary, "-o", scratch.sub("out"),
                                    "--report", scratch.sub("r.jsonl"), scratch.sub("in")], executable: "/usr/bin/env")
        #expect(outcome.status == 1, "\(hostile): \(outcome.stderr)")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let failed = report.entries("failed")
        // Reported as the walk names it, relative to the input directory.
        #expect(failed.keys.sorted() == ["photo.heic"], "\(hostile): the job's own source failed: \(report.bySource.keys.sorted())")
        print("\(hostile): \(failed["photo.heic"]?["errorCode"] ?? "-"): \(failed["photo.heic"]?["reason"] ?? "-")")
        #expect(!scratch.files().contains { $0.hasPrefix("out/") && !$0.hasSuffix("/") }, "\(hostile): nothing published: \(scratch.files())")
        for path in ["/etc/x", "/etc/heic2jpg-hostile", "/x"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(hostile): \(path) was not written")
        }
        var info = stat()
        #expect(stat(source, &info) == 0 && info.st_mode & 0o7777 == 0o640, "\(hostile): the source is untouched")
    }

    @Test("A published output that does not decode keeps its original: the hand-off's check decodes it in a worker, not in the parent")
    func undecodableOutputKeepsTheSource() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.sub("in/photo.heic")
        scratch.file("in/photo.heic", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic"))))
        let outcome = try Tool.run(["HEIC2JPG_TEST_HOSTILE_WORKER=undecodable-output", Tool.binary, "-o", scratch.sub("out"),
                                    "--state", scratch.sub("state.db"), "--delete-source", "--report", scratch.sub("r.jsonl"),
                                    scratch.sub("in")], executable: "/usr/bin/env")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let entry = try #require(report.bySource["photo.heic"], "\(outcome.stderr)")
        // The worker's word is all the parent had: the file is published and reported converted...
        #expect(entry["status"] as? String == "converted", "\(entry)")
        // ...but the original stays, for the decode the hand-off asked a worker for.
        let warnings = entry["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("photo.jpg does not decode cleanly: JPEG datastream contains no image") }, "\(entry)")
        #expect(FileManager.default.fileExists(atPath: source), "the original is kept")
    }
}
