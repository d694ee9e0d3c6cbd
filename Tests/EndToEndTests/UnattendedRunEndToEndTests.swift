import Foundation
import H2JJPEGCodec
import H2JTestSupport
import Testing

/// What a cron job over an archive meets: a full disk, a run killed at any moment.
@Suite("End to end: unattended runs")
struct UnattendedRunEndToEndTests {
    /// The iPhone-sized Sample: outputs big enough to fill a small file system quickly.
    static func photos(_ scratch: TemporaryDirectory, count: Int, name: String = "photo-exif-gps-xmp-icc.heic") throws {
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/" + name)))
        for i in 0..<count { scratch.file("in/p\(String(format: "%03d", i)).heic", photo) }
    }

    /// Mounts a tmpfs of `megabytes` at `path` (root only); false when that is not possible.
    static func mountTmpfs(_ path: String, megabytes: Int) -> Bool {
        (try? ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]))?.status == 0
    }

    @Test("A full disk (a small tmpfs as the output root): exit 75 within two files of the first ENOSPC, nothing partial, no temp file, the summary says why",
          .enabled(if: geteuid() == 0, "needs root to mount a tmpfs"))
    func fullDisk() throws {
        let scratch = TemporaryDirectory()
        try Self.photos(scratch, count: 60)
        let out = scratch.sub("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try #require(Self.mountTmpfs(out, megabytes: 1), "cannot mount a tmpfs")
        defer { _ = try? ChildProcess.run("/bin/umount", [out]) }
        let outcome = try Tool.run(["-j", "2", "-o", out, "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 75, "\(outcome.stderr)")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let summary = try #require(report.summary)
        let stoppedBy = try #require(summary["stoppedBy"] as? String, "\(summary)")
        #expect(stoppedBy.contains("No space left on device"))
        let failed = report.entries("failed")
        let full = failed.filter { $0.value["errorCode"] as? String == "disk-full" }
        #expect(!full.isEmpty)
        // The first ENOSPC, the file in flight beside it, and one planned just before the stop.
        #expect(failed.count <= 3, "\(failed.keys.sorted())")
        #expect(report.bySource.count < 60, "the run stopped starting files")
        #expect(outcome.stderr.contains("stopped before the end"))
        let written = scratch.files("out")
        #expect(written.allSatisfy { $0.hasSuffix(".jpg") }, "no temp file: \(written)")
        for name in written {
            #expect(JPEGCheck([UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))).problem == nil, "\(name) is whole")
        }
    }

    @Test("kill -9 at twenty moments, then a rerun: no partial JPEG, no temp file, every output whole")
    func killedRuns() throws {
        let scratch = TemporaryDirectory()
        try Self.photos(scratch, count: 40)
        let arguments = ["-j", "2", "-o", scratch.sub("out"), scratch.sub("in")]
        var generator = SeededGenerator("killedRuns")
        for _ in 0..<20 {
            let run = try RunningTool(arguments)
            usleep(UInt32.random(in: 5_000...400_000, using: &generator))
            kill(run.pid, SIGKILL)
            _ = run.wait()
        }
        let rerun = try Tool.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let written = scratch.files("out")
        #expect(written.count == 40, "\(written)")
        #expect(written.allSatisfy { $0.hasSuffix(".jpg") }, "no temp file left: \(written.filter { !$0.hasSuffix(".jpg") })")
        for name in written {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.sub("out/" + name))))
            #expect(JPEGCheck(bytes).problem == nil, "\(name) is whole")
        }
    }

    /// The peak RSS of a dry run over `count` files, 100 to a directory (GNU time's %M).
    static func dryRunPeak(_ scratch: TemporaryDirectory, count: Int) throws -> Int {
        let photo = scratch.file("sample.heic", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic"))))
        let tree = scratch.sub("tree\(count)")
        for i in 0..<count {
            let directory = tree + "/d\(i / 100)"
            if i % 100 == 0 { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            #expect(link(photo, directory + "/IMG_\(i).HEIC") == 0)
        }
        let outcome = try ChildProcess.run("/usr/bin/time", ["-f", "%M", Tool.binary, "--dry-run", "--quiet", "-o", scratch.sub("out"), tree])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try #require(outcome.stderr.split(separator: "\n").last.flatMap { Int($0) }, "\(outcome.stderr)")
    }

    @Test("Nothing per file lives for the whole run: a 20,000-file dry run peaks within 10% of a 1,000-file one",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time is not installed"))
    func memoryDoesNotGrowWithFiles() throws {
        let scratch = TemporaryDirectory()
        let small = try Self.dryRunPeak(scratch, count: 1000)
        let large = try Self.dryRunPeak(scratch, count: 20_000)
        // Before claims were released per directory, 20,000 files cost about 10 MB more.
        #expect(Double(large) <= Double(small) * 1.10, "1,000 files: \(small) kB; 20,000 files: \(large) kB")
    }

    @Test("Two input trees into one output root: a collision in a subdirectory the walk has left is still caught")
    func collisionAcrossInputs() throws {
        let scratch = TemporaryDirectory()
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
        scratch.file("a/sub/x.heic", photo)
        scratch.file("a/sub2/y.heic", photo)
        scratch.file("b/sub/x.heic", photo)
        let outcome = try Tool.run(["-j", "1", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("a"), scratch.sub("b")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8)
        #expect(lines.contains(#""errorCode":"output-collision""#), "\(lines)")
        #expect(scratch.files("out/sub") == ["x.jpg"])
    }
}
