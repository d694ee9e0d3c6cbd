import Foundation
import H2JTestSupport
import Testing

/// Runs started with a standard stream closed or read-only (issue 19, item 5): a closed
/// descriptor is put on /dev/null before anything is opened, so no worker socket takes
/// its number, and `-o -` without a writable stdout is refused before any work.
@Suite("End to end: closed standard streams")
struct StandardStreamsEndToEndTests {
    static let sample = Tool.samples + "/photo-exif-gps-xmp-icc.heic"

    @Test("-o - with stdout closed or read-only exits 74 before any work; a run that does not use stdout does not care")
    func standardOutput() throws {
        let scratch = TemporaryDirectory()
        for (redirection, problem) in [(">&-", "is closed"), ("1</dev/null", "is not open for writing")] {
            let outcome = try BoundedRun.run(["-o", "-", Self.sample], redirections: redirection)
            #expect(outcome.status == 74, "\(redirection): \(outcome.stderr)")
            #expect(outcome.stderr == "error: -o -: standard output \(problem); nothing done\n", "\(redirection)")
            let report = try BoundedRun.run(["--report", "-", "-o", scratch.sub("r"), Self.sample], redirections: redirection)
            #expect(report.status == 74, "\(redirection): \(report.stderr)")
            #expect(report.stderr.hasPrefix("error: --report -: standard output \(problem)"), "\(redirection)")
            #expect(!scratch.exists("r"), "nothing was done")
        }
        let stdin = try BoundedRun.run(["-o", "-", "-"], redirections: ">&-", stdin: try Data(contentsOf: URL(fileURLWithPath: Self.sample)))
        #expect(stdin.status == 74, "stdin's image to stdout: \(stdin.stderr)")
        let outcome = try BoundedRun.run(["-o", scratch.sub("out"), Self.sample], redirections: ">&-")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("out") == ["photo-exif-gps-xmp-icc.jpg"])
        #expect(outcome.stderr.contains("1 converted"))
    }

    @Test("With stderr closed, error lines go nowhere, never into a worker: every good file still converts")
    func standardError() throws {
        let scratch = TemporaryDirectory()
        let photo = [UInt8](try #require(FileManager.default.contents(atPath: Self.sample)))
        // Failures first, each an error line, then good files for the same workers.
        for name in ["a-broken.heic", "b-broken.heic", "c-broken.heic"] { scratch.file("in/\(name)", Array("junk".utf8)) }
        for n in 1...6 { scratch.file("in/good-\(n).heic", photo) }
        let outcome = try BoundedRun.run(["--jobs", "2", "--timeout", "30", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"),
                                          scratch.sub("in")], redirections: "2>&-", within: 120)
        #expect(outcome.status == 1, "three inputs failed")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        #expect(report.entries("converted").count == 6, "\(report.bySource.mapValues { $0["reason"] ?? "" })")
        #expect(report.entries("failed").keys.sorted() == ["a-broken.heic", "b-broken.heic", "c-broken.heic"])
        #expect(report.entries("failed").values.allSatisfy { $0["errorCode"] as? String == "not-heif" })
        #expect(scratch.files("out").count == 6)
    }

    @Test("With stdin closed, `-` reads nothing and fails; nothing hangs")
    func standardInput() throws {
        let scratch = TemporaryDirectory()
        let outcome = try BoundedRun.run(["-o", scratch.sub("out"), "-"], redirections: "<&-")
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("not a HEIF image: looks like an empty file"), "\(outcome.stderr)")
    }
}
