import Foundation
import H2JTestSupport
import Testing

/// Inputs that are not regular files (issue 19, item 3): each fails as
/// `not-a-regular-file` with its type, the run exits 1, and nothing blocks on a FIFO or
/// reads a device. The deadline of each run only tells a hang from an answer; no time
/// is asserted.
@Suite("End to end: inputs that are not regular files")
struct SpecialFilesEndToEndTests {
    static let sample = Tool.samples + "/photo-exif-gps-xmp-icc.heic"

    /// `in/` with a good photo, a directory `dir.heic/` holding one more (a folder, walked
    /// like any), and the special files of acceptance d, named like HEIF.
    static func tree(_ scratch: TemporaryDirectory) throws -> [String: String] {
        scratch.file("in/good.heic", [UInt8](try #require(FileManager.default.contents(atPath: sample))))
        scratch.file("in/dir.heic/inside.heic", [UInt8](try #require(FileManager.default.contents(atPath: sample))))
        scratch.fifo("in/fifo.heic")
        scratch.socket("in/socket.heic")
        scratch.symlink("in/zero.heic", to: "/dev/zero")
        scratch.symlink("in/urandom.heic", to: "/dev/urandom")
        scratch.symlink("in/fifolink.heic", to: scratch.sub("in/fifo.heic"))
        return ["fifo.heic": "not a regular file: a FIFO", "socket.heic": "not a regular file: a socket",
                "zero.heic": "not a regular file: a symlink to a character device",
                "urandom.heic": "not a regular file: a symlink to a character device",
                "fifolink.heic": "not a regular file: a symlink to a FIFO"]
    }

    /// Checks that the run answered, exited 1, converted `good.heic` and failed each of
    /// `expected` with its reason and `not-a-regular-file`.
    func check(_ outcome: BoundedRun.Outcome, report: String, expected: [String: String], _ context: String) throws {
        #expect(outcome.status != nil, "\(context): the run hung")
        #expect(outcome.status == 1, "\(context): \(outcome.stderr)")
        let entries = try ReportFile(report).bySource
        #expect(entries["good.heic"]?["status"] as? String == "converted", "\(context)")
        for (name, reason) in expected {
            #expect(entries[name]?["status"] as? String == "failed", "\(context): \(name)")
            #expect(entries[name]?["errorCode"] as? String == "not-a-regular-file", "\(context): \(name)")
            #expect(entries[name]?["reason"] as? String == reason, "\(context): \(name)")
            #expect(outcome.stderr.contains("\(name): \(reason)"), "\(context): \(name) has no error line")
        }
    }

    @Test("The issue's FIFO: `mkfifo x.heic; heic2jpg --timeout 5 -o o x.heic` fails at once and exits 1")
    func namedFIFO() throws {
        let scratch = TemporaryDirectory()
        scratch.fifo("x.heic")
        let outcome = try BoundedRun.run(["--timeout", "5", "-o", "o", "x.heic"], within: 30, workingDirectory: scratch.path)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("error: x.heic: not a regular file: a FIFO"), "\(outcome.stderr)")
    }

    @Test("On the command line: a FIFO, a socket, /dev/zero and /dev/urandom through symlinks each fail with their type")
    func commandLine() throws {
        let scratch = TemporaryDirectory()
        let expected = try Self.tree(scratch)
        let outcome = try BoundedRun.run(["--timeout", "5", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl")]
                                         + expected.keys.sorted().map { scratch.sub("in/" + $0) } + [scratch.sub("in/good.heic")])
        try check(outcome, report: scratch.sub("r.jsonl"), expected: expected, "command line")
        #expect(scratch.files("out") == ["good.jpg"])
    }

    @Test("A directory named x.heic on the command line, with or without a trailing /, is a tree to walk, as any directory input",
          arguments: ["", "/"])
    func directoryInput(slash: String) throws {
        let scratch = TemporaryDirectory()
        _ = try Self.tree(scratch)
        let outcome = try BoundedRun.run(["-o", scratch.sub("out"), scratch.sub("in/dir.heic") + slash])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("out") == ["inside.jpg"])
    }

    @Test("In a walked tree: each special file named like HEIF fails with its type; the directory named x.heic is walked")
    func walk() throws {
        let scratch = TemporaryDirectory()
        let expected = try Self.tree(scratch)
        scratch.fifo("in/other-fifo")
        scratch.symlink("in/zero", to: "/dev/zero")
        let outcome = try BoundedRun.run(["--timeout", "5", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"),
                                          scratch.sub("in")])
        try check(outcome, report: scratch.sub("r.jsonl"), expected: expected, "walk")
        let entries = try ReportFile(scratch.sub("r.jsonl")).bySource
        #expect(entries["other-fifo"] == nil && entries["zero"] == nil, "special files of other names are passed over")
        #expect(entries["inside.heic"]?["status"] as? String == "converted")
        #expect(scratch.files("out") == ["dir.heic/inside.jpg", "good.jpg"])
    }

    @Test("In --files-from: each special file fails with its type; the directory named x.heic is passed over, its listed photo converted")
    func list() throws {
        let scratch = TemporaryDirectory()
        let expected = try Self.tree(scratch)
        let list = (expected.keys.sorted() + ["dir.heic", "dir.heic/inside.heic", "good.heic"]).joined(separator: "\n") + "\n"
        let outcome = try BoundedRun.run(["--timeout", "5", "--files-from", "-", "--base", scratch.sub("in"),
                                          "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl")],
                                         stdin: Data(list.utf8))
        try check(outcome, report: scratch.sub("r.jsonl"), expected: expected, "list")
        #expect(try ReportFile(scratch.sub("r.jsonl")).bySource["dir.heic"] == nil, "a listed directory is passed over")
        #expect(scratch.files("out") == ["dir.heic/inside.jpg", "good.jpg"])
    }
}
