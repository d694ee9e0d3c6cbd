import Foundation
import H2JTestSupport
import Testing

/// The state as a cron job meets it (issue #19, item 6): a full or read-only disk under
/// the state, a state file that is empty or unreadable, two states over one output root,
/// outputs the user edited, and outputs a source no longer has.
@Suite("End to end: the state under cron")
struct CronStateEndToEndTests {
    /// Whether this process may mount a tmpfs (root, and a kernel and container that allow it).
    static let canMount: Bool = {
        let scratch = TemporaryDirectory()
        let point = scratch.sub("probe")
        guard geteuid() == 0, (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)) != nil,
              UnattendedRunEndToEndTests.mountTmpfs(point, megabytes: 1) else { return false }
        _ = try? ChildProcess.run("/bin/umount", [point])
        return true
    }()

    static func sqlite(_ state: String, _ sql: String) throws -> [String] { try StateEndToEndTests.query(state, sql) }

    static let hasSQLite = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    @Test("A state on a disk that fills mid-run: exit 75, the run stops, and every JPEG published has its record (before: 1–2 were published unrecorded); once there is room a rerun records everything. A read-only state disk: exit 75, nothing written",
          .enabled(if: canMount && hasSQLite, "needs root, mount and sqlite3"))
    func stateDiskFullOrReadOnly() throws {
        let scratch = TemporaryDirectory()
        _ = try StateEndToEndTests.tree(scratch, count: 40)
        scratch.file("first/a.heic", try StateEndToEndTests.sample("monochrome.heic"))
        let disk = scratch.sub("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try #require(UnattendedRunEndToEndTests.mountTmpfs(disk, megabytes: 1), "cannot mount a tmpfs")
        defer { _ = try? ChildProcess.run("/bin/umount", [disk]) }
        let state = disk + "/state.db"
        #expect(try Tool.run(["--state", state, "-o", scratch.sub("first-out"), scratch.sub("first")]).status == 0)
        // Leave 200 kB: room for the run's start and a few records (each commit appends pages to the WAL).
        let free = try ChildProcess.run("/bin/df", ["-k", "--output=avail", disk]).stdoutText.split(separator: "\n").last
        let kilobytes = try #require(free.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        scratch.file("disk/filler", [UInt8](repeating: 0, count: (kilobytes - 200) * 1024))
        let arguments = ["-j", "2", "--state", state, "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")]
        let full = try Tool.run(arguments)
        #expect(full.status == 75, "\(full.stderr)")
        #expect(full.stderr.contains("stopped before the end"), "\(full.stderr)")
        let summary = try #require(try ReportFile(scratch.sub("r.jsonl")).summary)
        #expect((summary["stoppedBy"] as? String)?.contains("disk is full") == true, "\(summary)")
        let written = Set(scratch.files("out").map { scratch.sub("out/" + $0) })
        let recorded = Set(try Self.sqlite(state, "SELECT cast(path AS text) FROM outputs"))
        #expect(written.count < 40, "the run stopped: \(written.count) written")
        #expect(written.subtracting(recorded).isEmpty, "published without a record: \(written.subtracting(recorded).sorted())")
        #expect(scratch.files("out").allSatisfy { $0.hasSuffix(".jpg") }, "no temp file: \(scratch.files("out"))")
        try FileManager.default.removeItem(atPath: scratch.sub("disk/filler"))
        let rerun = try Tool.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try Self.sqlite(state, "SELECT count(*) FROM sources WHERE cast(path AS text) LIKE 'd_/%'") == ["40"])

        // Full before the run starts: 75 too (before: exit 1), and nothing converted.
        let left = try ChildProcess.run("/bin/df", ["-k", "--output=avail", disk]).stdoutText.split(separator: "\n").last
        scratch.file("disk/filler", [UInt8](repeating: 0, count: try #require(left.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }) * 1024))
        scratch.file("more/b.heic", try StateEndToEndTests.sample("monochrome.heic"))
        let startFull = try Tool.run(["--state", state, "-o", scratch.sub("more-out"), scratch.sub("more")])
        #expect(startFull.status == 75 && (startFull.stderr.contains("disk is full") || startFull.stderr.contains("No space left on device")), "\(startFull.stderr)")
        #expect(!scratch.exists("more-out/b.jpg"))
        try FileManager.default.removeItem(atPath: scratch.sub("disk/filler"))

        #expect(try ChildProcess.run("/bin/mount", ["-o", "remount,ro", disk]).status == 0)
        let readOnly = try Tool.run(["--state", state, "-o", scratch.sub("out2"), scratch.sub("in")])
        #expect(readOnly.status == 75, "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("Read-only file system"), "\(readOnly.stderr)")
        #expect(!scratch.exists("out2/d0"), "nothing converted")
    }

    @Test("A 0-byte state file is damaged: moved aside with a warning, and the run goes on with a new state (before: silently taken as a new, empty state)")
    func emptyState() throws {
        let scratch = TemporaryDirectory()
        _ = try StateEndToEndTests.tree(scratch, count: 3)
        scratch.file("state.db", [])
        let outcome = try Tool.run(["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("warning: --state \(scratch.sub("state.db")) was damaged (it is empty (0 bytes))"), "\(outcome.stderr)")
        let aside = try #require(scratch.files().first { $0.hasPrefix("state.db.damaged-") }, "\(scratch.files())")
        #expect(FileManager.default.contents(atPath: scratch.sub(aside))?.isEmpty == true)
        #expect(outcome.stderr.contains("3 converted"), "\(outcome.stderr)")
        let rerun = try Tool.run(["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(rerun.status == 0 && !rerun.stderr.contains("damaged") && rerun.stderr.contains("3 skipped"), "\(rerun.stderr)")
    }

    @Test("An unreadable state file is damaged: moved aside with a warning, and the run goes on with a new state (run as nobody when root, since root reads any file)",
          .enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv to drop root"))
    func unreadableState() throws {
        let scratch = TemporaryDirectory()
        _ = try StateEndToEndTests.tree(scratch, count: 3)
        scratch.file("state.db", Array("not for your eyes".utf8))
        #expect(chmod(scratch.sub("state.db"), 0) == 0)
        for directory in [scratch.path, scratch.sub("in")] + ["d0", "d1", "d2"].map({ scratch.sub("in/" + $0) }) {
            #expect(chmod(directory, 0o777) == 0)
        }
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
        let outcome = geteuid() == 0
            ? try Tool.run(["--reuid=65534", "--regid=65534", "--clear-groups", Tool.binary] + arguments, executable: "/usr/bin/setpriv")
            : try Tool.run(arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("warning: --state \(scratch.sub("state.db")) was damaged (it cannot be read: Permission denied)"), "\(outcome.stderr)")
        #expect(scratch.files().contains { $0.hasPrefix("state.db.damaged-") }, "\(scratch.files())")
        #expect(outcome.stderr.contains("3 converted"), "\(outcome.stderr)")
    }

    @Test("Two runs with different states over one output root: the second exits 0 doing nothing while the first holds the root, or with --wait waits; no false 'not written by heic2jpg' error. Shards share a root's lock",
          .enabled(if: hasSQLite, "sqlite3 is not installed"))
    func outputRootLock() throws {
        let scratch = TemporaryDirectory()
        _ = try StateEndToEndTests.tree(scratch, count: 40, sample: "photo-exif-gps-xmp-icc.heic")
        let out = scratch.sub("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        func arguments(_ state: String) -> [String] { ["-j", "2", "--state", scratch.sub(state), "-o", out, scratch.sub("in")] }
        // Held by this process: a run with a state of its own must still keep off the root.
        let root = open(out, O_RDONLY | O_DIRECTORY)
        defer { close(root) }
        #expect(flock(root, LOCK_EX) == 0)
        let blocked = try Tool.run(arguments("c.db"))
        #expect(blocked.status == 0 && blocked.stderr.contains("holds the lock on \(out); nothing done"), "\(blocked.stderr)")
        #expect(scratch.files("out").isEmpty, "nothing written")
        let shard = try Tool.run(arguments("c-{shard}.db") + ["--shard", "0/2"])
        #expect(shard.status == 0 && shard.stderr.contains("holds the lock on \(out); nothing done"), "an unsharded run's root: \(shard.stderr)")
        // Held shared, as another shard holds it: a shard goes ahead.
        #expect(flock(root, LOCK_SH) == 0)
        let sharded = try Tool.run(arguments("c-{shard}.db") + ["--shard", "0/2"])
        #expect(sharded.status == 0 && !sharded.stderr.contains("holds the lock"), "\(sharded.stderr)")
        #expect(flock(root, LOCK_UN) == 0)
        for path in scratch.files("out") { try FileManager.default.removeItem(atPath: out + "/" + path) }

        for trial in 0..<3 {
            let a = "a\(trial).db", b = "b\(trial).db"
            // Both wait, so whichever takes the root first, the other converts nothing twice and fails nothing.
            let first = try RunningTool(arguments(a) + ["--wait"])
            usleep(50_000)
            let second = try Tool.run(arguments(b) + ["--wait"])
            #expect(first.wait() == 0, "trial \(trial)")
            #expect(second.status == 0 && !second.stderr.contains("not written by heic2jpg"), "trial \(trial): \(second.stderr)")
            let converted = try [a, b].map { try Self.sqlite(scratch.sub($0), "SELECT coalesce(sum(converted), 0) FROM runs").first ?? "" }
            let failed = try [a, b].map { try Self.sqlite(scratch.sub($0), "SELECT count(*) FROM sources WHERE status = 'failed'").first ?? "" }
            #expect(failed == ["0", "0"], "trial \(trial): \(failed)")
            #expect(trial > 0 || converted.compactMap(Int.init).reduce(0, +) == 40, "trial \(trial): each file converted once: \(converted)")
        }
    }

    @Test("With --state, the outputs a --no-mark run recorded are the source's own: a default run replaces a collection's NAME.jpg and NAME-2.jpg (before: it failed on its own -2.jpg, on every run)")
    func recordedOutputsAreOurs() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/c.heic", try StateEndToEndTests.sample("collection-3-images.heic"))
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
        let unmarked = try Tool.run(["--no-mark"] + arguments)
        #expect(unmarked.status == 0 && scratch.files("out") == ["c-2.jpg", "c-3.jpg", "c.jpg"], "\(unmarked.stderr)")
        let marked = try Tool.run(arguments + ["-v"])
        #expect(marked.status == 0 && marked.stderr.contains("updated: \(scratch.sub("in/c.heic"))"), "\(marked.stderr)")
        #expect(!marked.stderr.contains("not written by heic2jpg"), "\(marked.stderr)")
        for name in ["c.jpg", "c-2.jpg", "c-3.jpg"] {
            let bytes = String(decoding: try Data(contentsOf: URL(fileURLWithPath: scratch.sub("out/" + name))), as: UTF8.self)
            #expect(bytes.contains("h2j:sourceName"), "\(name) now carries the mark")
        }
        let again = try Tool.run(arguments)
        #expect(again.status == 0 && again.stderr.contains("1 skipped"), "\(again.stderr)")
        // Without the state, nothing vouches for an unmarked file: it stays foreign.
        #expect(try Tool.run(["--no-mark", "-o", scratch.sub("out2"), scratch.sub("in")]).status == 0)
        let stateless = try Tool.run(["-o", scratch.sub("out2"), scratch.sub("in")])
        #expect(stateless.status == 1 && stateless.stderr.contains("not written by heic2jpg"), "\(stateless.stderr)")
    }

    static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("An output the user edited with exiftool (a new inode, the mark kept) is skipped with output-modified, in the report and the summary, run after run; only --overwrite replaces it (before: silently replaced)",
          .enabled(if: ExifTool.isAvailable, "exiftool is not installed"))
    func editedOutputIsKept() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic"))
        let output = scratch.sub("out/a.jpg")
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        var before = stat()
        stat(output, &before)
        let edit = try ExifTool.run(["-overwrite_original", "-Artist=The User", output])
        #expect(edit.status == 0, "\(edit.stderr)")
        var after = stat()
        stat(output, &after)
        #expect(after.st_ino != before.st_ino, "exiftool writes a new file")
        let edited = try #require(Self.contents(output))
        for _ in 0..<2 {
            let rerun = try Tool.run(arguments)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(rerun.stderr.contains("warning: 1 file: output-modified, \(scratch.sub("in/a.heic")): \(output) was modified since heic2jpg wrote it"), "\(rerun.stderr)")
            let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["a.heic"])
            #expect(entry["status"] as? String == "skipped" && entry["warningCodes"] as? [String] == ["output-modified"], "\(entry)")
            #expect(Self.contents(output) == edited, "the user's edit is kept")
        }
        let replaced = try Tool.run(arguments + ["--overwrite"])
        #expect(replaced.status == 0 && replaced.stderr.contains("1 updated") && !replaced.stderr.contains("output-modified"), "\(replaced.stderr)")
        #expect(Self.contents(output) != edited)
        let settled = try Tool.run(arguments)
        #expect(settled.status == 0 && settled.stderr.contains("1 skipped") && !settled.stderr.contains("output-modified"), "\(settled.stderr)")
    }

    @Test("Outputs a source no longer has are removed when unchanged, and reported: a collection that became one photo loses its NAME-2.jpg and NAME-3.jpg; --stereo split then mpo swaps NAME-left/right.jpg and NAME.jpg; one the user edited is kept and reported")
    func staleOutputs() throws {
        let scratch = TemporaryDirectory()
        let collection = scratch.file("in/c.heic", try StateEndToEndTests.sample("collection-3-images.heic"))
        scratch.file("in/s.heic", try StateEndToEndTests.sample("stereo-pair-ster.heic"))
        let out = scratch.sub("out")
        let arguments = ["--state", scratch.sub("state.db"), "-o", out, "--report", scratch.sub("r.jsonl"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        #expect(scratch.files("out") == ["c-2.jpg", "c-3.jpg", "c.jpg", "s.jpg"])
        func warnings(_ source: String) throws -> [String: String] {
            let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[source])
            let codes = entry["warningCodes"] as? [String] ?? [], messages = entry["warnings"] as? [String] ?? []
            return Dictionary(zip(codes, messages), uniquingKeysWith: { $0 + "\n" + $1 })
        }

        #expect(FileManager.default.createFile(atPath: collection, contents: Data(try StateEndToEndTests.sample("monochrome.heic"))))
        let fewer = try Tool.run(arguments)
        #expect(fewer.status == 0 && fewer.stderr.contains("1 updated"), "\(fewer.stderr)")
        #expect(scratch.files("out") == ["c.jpg", "s.jpg"], "the collection's other images are gone")
        #expect(try warnings("c.heic")["stale-output-removed"] == "removed 2 outputs \(collection) no longer has, unchanged since heic2jpg wrote them: \(out)/c-2.jpg, \(out)/c-3.jpg")
        #expect(fewer.stderr.contains("stale-output-removed"), "in the summary: \(fewer.stderr)")

        let split = try Tool.run(arguments + ["--stereo", "split"])
        #expect(split.status == 0, "\(split.stderr)")
        #expect(scratch.files("out") == ["c.jpg", "s-left.jpg", "s-right.jpg"], "the MPO is gone")
        #expect(try warnings("s.heic")["stale-output-removed"]?.hasSuffix(": \(out)/s.jpg") == true)

        let edit = try ExifTool.run(["-overwrite_original", "-Artist=The User", out + "/s-right.jpg"])
        #expect(edit.status == 0)
        let edited = try #require(Self.contents(out + "/s-right.jpg"))
        // --overwrite: the edited output is not an output of the MPO conversion: kept, and said.
        let mpo = try Tool.run(arguments + ["--overwrite"])
        #expect(mpo.status == 0, "\(mpo.stderr)")
        #expect(scratch.files("out") == ["c.jpg", "s-right.jpg", "s.jpg"], "the unchanged left view is gone, the edited right view kept")
        #expect(Self.contents(out + "/s-right.jpg") == edited)
        let stereo = try warnings("s.heic")
        #expect(stereo["stale-output-removed"]?.hasSuffix(": \(out)/s-left.jpg") == true, "\(stereo)")
        #expect(stereo["stale-output-kept"]?.contains("\(out)/s-right.jpg, an output \(scratch.sub("in/s.heic")) no longer has, is kept: it was modified since heic2jpg wrote it") == true, "\(stereo)")
        let settled = try Tool.run(arguments)
        #expect(settled.status == 0 && settled.stderr.contains("2 skipped") && !settled.stderr.contains("stale-output"), "\(settled.stderr)")
    }

    @Test("--on-conflict suffix: an other image suffixed beside a foreign file (NAME-2-1.jpg) is replaced there when its source changes, not moved on to NAME-2-2.jpg")
    func suffixedOtherImageStays() throws {
        let scratch = TemporaryDirectory()
        let collection = scratch.file("in/c.heic", try StateEndToEndTests.sample("collection-3-images.heic"))
        let foreign = scratch.file("out/c-2.jpg", Array("the user's own file".utf8))
        let arguments = ["--on-conflict", "suffix", "--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        #expect(scratch.files("out") == ["c-2-1.jpg", "c-2.jpg", "c-3.jpg", "c.jpg"])
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, collection, &times, 0) == 0, "the source changed")
        let rerun = try Tool.run(arguments)
        #expect(rerun.status == 0 && rerun.stderr.contains("1 updated") && !rerun.stderr.contains("stale-output"), "\(rerun.stderr)")
        #expect(scratch.files("out") == ["c-2-1.jpg", "c-2.jpg", "c-3.jpg", "c.jpg"])
        #expect(Self.contents(foreign) == Data("the user's own file".utf8))
    }
}
