import Foundation
import H2JTestSupport
import Testing

/// `--state`: reruns convert only what changed, vanished sources are reported, and
/// overlapping runs never convert a file twice (issue #11).
@Suite("End to end: the state database")
struct StateEndToEndTests {
    static func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/" + name)))
    }

    /// `count` photos in 3 folders.
    static func tree(_ scratch: TemporaryDirectory, count: Int, sample name: String = "monochrome.heic") throws -> [String] {
        let photo = try sample(name)
        return (0..<count).map { scratch.file("in/d\($0 % 3)/p\(String(format: "%03d", $0)).heic", photo) }
    }

    /// Rows of `sql` over the state file, with sqlite3.
    static func query(_ state: String, _ sql: String) throws -> [String] {
        let outcome = try ChildProcess.run("/usr/bin/sqlite3", [state, sql])
        return outcome.stdoutText.split(separator: "\n").map(String.init)
    }

    /// The (mtime, inode) of every output, by path.
    static func identities(_ scratch: TemporaryDirectory) -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        for directory in ["d0", "d1", "d2"] {
            for name in scratch.files("out/" + directory) {
                var info = stat()
                stat(scratch.sub("out/\(directory)/\(name)"), &info)
                found["\(directory)/\(name)"] = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_ino)]
            }
        }
        return found
    }

    @Test("A rerun converts nothing; after replacing 10 sources and deleting 5, exactly those 10 are updated and those 5 missing-source, and every other output keeps its mtime and inode",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
    func incremental() throws {
        let scratch = TemporaryDirectory()
        let sources = try Self.tree(scratch, count: 30)
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        let before = Self.identities(scratch)
        #expect(before.count == 30)
        let noop = try Tool.run(arguments)
        #expect(noop.status == 0 && noop.stderr.contains("0 converted, 0 copied, 30 skipped, 0 failed"), "\(noop.stderr)")
        #expect(Self.identities(scratch) == before)
        let other = try Self.sample("photo-exif-gps-xmp-icc.heic")
        let replaced = Array(sources[0..<10]), deleted = Array(sources[10..<15])
        for path in replaced { #expect(FileManager.default.createFile(atPath: path, contents: Data(other))) }
        for path in deleted { try FileManager.default.removeItem(atPath: path) }
        let rerun = try Tool.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        #expect(Set(report.entries("updated").keys) == Set(replaced.map { ($0 as NSString).lastPathComponent }))
        #expect(Set(report.entries("missing-source").keys) == Set(deleted.map { ($0 as NSString).lastPathComponent }))
        #expect(report.entries("skipped").count == 15)
        #expect(report.summary?["updated"] as? Int == 10 && report.summary?["missingSources"] as? Int == 5)
        let after = Self.identities(scratch)
        #expect(after.count == 30, "the outputs of vanished sources are kept")
        for (path, identity) in before {
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: ".jpg", with: ".heic")
            let wasReplaced = replaced.contains { $0.hasSuffix("/" + name) }
            #expect((after[path] == identity) != wasReplaced, "\(path)")
        }
        let rows = try Self.query(scratch.sub("state.db"), "SELECT status, count(*) FROM sources GROUP BY status ORDER BY status")
        #expect(rows == ["converted|15", "missing-source|5", "updated|10"], "\(rows)")
        #expect(try Self.query(scratch.sub("state.db"), "PRAGMA integrity_check") == ["ok"])
    }

    @Test("Two runs started 0.1 s apart over the same state: every file is converted exactly once",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
    func overlappingRuns() throws {
        for (trial, wait) in [false, true, false].enumerated() {
            let scratch = TemporaryDirectory()
            // Photos big enough that the first run is still going when the second starts.
            _ = try Self.tree(scratch, count: 40, sample: "photo-exif-gps-xmp-icc.heic")
            let arguments = ["-j", "2", "--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
            let first = try RunningTool(arguments)
            usleep(100_000)
            let second = try Tool.run(arguments + (wait ? ["--wait"] : []))
            #expect(second.status == 0, "trial \(trial): \(second.stderr)")
            if !wait { #expect(second.stderr.contains("holds the lock"), "trial \(trial): \(second.stderr)") }
            #expect(first.wait() == 0)
            let converted = try Self.query(scratch.sub("state.db"), "SELECT sum(converted) FROM runs")
            #expect(converted == ["40"], "trial \(trial): \(converted)")
            #expect(scratch.files("out/d0").count + scratch.files("out/d1").count + scratch.files("out/d2").count == 40)
        }
    }

    @Test("--no-mark: a changed source's output, recorded in the state, is its own and is refreshed; without the state it would be foreign")
    func noMarkOwnershipByState() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/a.heic", try Self.sample("monochrome.heic"))
        let arguments = ["--no-mark", "--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        #expect(FileManager.default.createFile(atPath: source, contents: Data(try Self.sample("photo-exif-gps-xmp-icc.heic"))))
        let withoutState = try Tool.run(["--no-mark", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(withoutState.status == 1 && withoutState.stderr.contains("was not written by heic2jpg"), "\(withoutState.stderr)")
        let refreshed = try Tool.run(arguments + ["-v"])
        #expect(refreshed.status == 0 && refreshed.stderr.contains("updated: "), "\(refreshed.stderr)")
    }

    @Test("A state's missing directory is created; a state that cannot be locked (its directory is a file) fails the run rather than going on unlocked; a busy lock is silent under --quiet")
    func unlockableState() throws {
        let scratch = TemporaryDirectory()
        _ = try Self.tree(scratch, count: 2)
        let fresh = try Tool.run(["--quiet", "--state", scratch.sub("new/dir/state.db"), "-o", scratch.sub("fresh"), scratch.sub("in")])
        #expect(fresh.status == 0 && fresh.stderr.isEmpty && scratch.exists("new/dir/state.db"), "\(fresh.stderr)")
        scratch.file("plain", [0])
        let blocked = try Tool.run(["--state", scratch.sub("plain/state.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(blocked.status == 73 && blocked.stderr.contains("cannot take the run lock"), "\(blocked.stderr)")
        #expect(!scratch.exists("out/d0"), "nothing converted")
        let holder = try RunningTool(["--state", scratch.sub("s.db"), "--wait", "-o", scratch.sub("out"), scratch.sub("in")])
        _ = holder.wait()
        let lock = open(scratch.sub("s.db.lock"), O_RDWR | O_CREAT, 0o644)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        let quiet = try Tool.run(["--quiet", "--state", scratch.sub("s.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let loud = try Tool.run(["--state", scratch.sub("s.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(loud.status == 0 && loud.stderr.contains("holds the lock on \(scratch.sub("s.db.lock")); nothing done"), "\(loud.stderr)")
    }

    @Test("A rerun notices an output deleted (converted again, updated) or replaced by another file (output-modified), by its directory's listing; one written over in place, its inode kept, only with --recheck")
    func outputsChangedByHand() throws {
        let scratch = TemporaryDirectory()
        _ = try Self.tree(scratch, count: 3)
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), "-v", scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        let deleted = scratch.sub("out/d0/p000.jpg"), replaced = scratch.sub("out/d1/p001.jpg"), inPlace = scratch.sub("out/d2/p002.jpg")
        try FileManager.default.removeItem(atPath: deleted)
        // An editor's save: a new file renamed over the output.
        let edited = try [UInt8](Data(contentsOf: URL(fileURLWithPath: replaced))) + [0]
        scratch.file("out/d1/edited.tmp", edited)
        #expect(rename(scratch.sub("out/d1/edited.tmp"), replaced) == 0)
        // Appended to in place: the same inode, another size.
        let handle = try #require(FileHandle(forWritingAtPath: inPlace))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let rerun = try Tool.run(arguments)
        #expect(rerun.stderr.contains("updated: \(scratch.sub("in/d0/p000.heic"))") && FileManager.default.fileExists(atPath: deleted), "\(rerun.stderr)")
        #expect(rerun.stderr.contains("\(replaced) was modified since heic2jpg wrote it"), "\(rerun.stderr)")
        #expect(!rerun.stderr.contains("\(inPlace) was modified"), "the listing shows the same inode: \(rerun.stderr)")
        let rechecked = try Tool.run(arguments + ["--recheck"])
        #expect(rechecked.stderr.contains("\(inPlace) was modified since heic2jpg wrote it"), "\(rechecked.stderr)")
    }

    @Test("--recheck: a source changed behind an unchanged size, mtime and inode is found by its SHA-256 and converted again")
    func recheck() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/a.heic", try Self.sample("monochrome.heic"))
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        var before = stat()
        stat(source, &before)
        // Flip one byte of the last tile's data in place, then put the times back.
        let fd = open(source, O_RDWR)
        var byte: UInt8 = 0
        _ = pread(fd, &byte, 1, off_t(before.st_size - 3))
        byte ^= 0x01
        _ = pwrite(fd, &byte, 1, off_t(before.st_size - 3))
        var times = [before.st_atim, before.st_mtim]
        #expect(futimens(fd, &times) == 0)
        close(fd)
        let plain = try Tool.run(arguments)
        #expect(plain.stderr.contains("1 skipped"), "size, mtime and inode alone cannot see it: \(plain.stderr)")
        // Converted again: updated, or failed if the flipped byte broke the picture.
        let checked = try Tool.run(arguments + ["--recheck", "-v"])
        #expect(!checked.stderr.contains("up to date") && !checked.stderr.contains("1 skipped"), "\(checked.stderr)")
        #expect(checked.stderr.contains("updated: \(source)") || checked.stderr.contains("error: \(source)"), "\(checked.stderr)")
        #expect(try Tool.run(["--recheck", "-o", scratch.sub("out"), scratch.sub("in")]).status == 64, "--recheck needs --state")
    }

    @Test("--dry-run reads the state and writes none: no state is created, an existing one keeps its bytes and records, and the preview says what a run would do (up to date, planned, missing); a damaged one fails the dry run and stays where it is")
    func dryRunReadsTheState() throws {
        let scratch = TemporaryDirectory()
        let sources = try Self.tree(scratch, count: 6)
        let state = scratch.sub("state.db")
        let arguments = ["--state", state, "-o", scratch.sub("out"), scratch.sub("in")]
        let first = try Tool.run(arguments + ["--dry-run"])
        #expect(first.status == 0 && first.stderr.contains("6 planned"), "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state) && scratch.files().filter { $0.hasPrefix("state.db") }.isEmpty)
        #expect(try Tool.run(arguments).status == 0)
        // A finished run closes the state: its WAL is moved into the file, which alone holds it all.
        #expect(FileManager.default.fileExists(atPath: state) && !FileManager.default.fileExists(atPath: state + "-wal"))
        // Replace one source, delete another: the preview must say so, and the state must not change.
        #expect(FileManager.default.createFile(atPath: sources[0], contents: Data(try Self.sample("photo-exif-gps-xmp-icc.heic"))))
        try FileManager.default.removeItem(atPath: sources[1])
        func bytes(_ suffix: String) -> Data? { FileManager.default.contents(atPath: state + suffix) }
        let database = bytes("")
        let rows = try Self.query(state, "SELECT path, status FROM sources ORDER BY path")
        let runs = try Self.query(state, "SELECT count(*) FROM runs")
        let (database2, log2) = (bytes(""), bytes("-wal"))
        let preview = try Tool.run(arguments + ["--dry-run", "-v"])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stderr.contains("planned: \(sources[0])") && preview.stderr.contains("missing: \(sources[1])"), "\(preview.stderr)")
        #expect(preview.stderr.contains("1 planned (dry run), 0 converted, 0 copied, 4 skipped, 0 failed, 1 missing"), "\(preview.stderr)")
        // SQLite's reader may leave an empty -wal (and its -shm index) where sqlite3 removed them: no data.
        #expect(bytes("") == database2 && (bytes("-wal") ?? Data()) == (log2 ?? Data()), "the dry run wrote the state")
        #expect(database != nil)
        #expect(try Self.query(state, "SELECT path, status FROM sources ORDER BY path") == rows)
        #expect(try Self.query(state, "SELECT count(*) FROM runs") == runs)
        // The run the preview described: exactly that.
        let real = try Tool.run(arguments)
        #expect(real.stderr.contains("0 converted, 1 updated, 0 copied, 4 skipped, 0 failed, 1 missing"), "\(real.stderr)")
        // A damaged state is not moved aside by a dry run: it fails, and the file stays.
        let garbage = [UInt8](repeating: 0x42, count: 4096)
        scratch.file("broken.db", garbage)
        let broken = try Tool.run(["--dry-run", "--state", scratch.sub("broken.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(broken.status != 0 && broken.stderr.contains("broken.db"), "\(broken.stderr)")
        #expect(FileManager.default.contents(atPath: scratch.sub("broken.db")) == Data(garbage))
        #expect(!scratch.files().contains { $0.hasPrefix("broken.db.damaged-") })
    }

    @Test("A damaged state file is moved aside with a warning, and the run goes on with a new state")
    func damagedState() throws {
        let scratch = TemporaryDirectory()
        _ = try Self.tree(scratch, count: 3)
        let garbage = [UInt8](repeating: 0x42, count: 4096)
        scratch.file("state.db", garbage)
        let outcome = try Tool.run(["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("warning: --state \(scratch.sub("state.db")) was damaged"), "\(outcome.stderr)")
        let aside = try #require(scratch.files().first { $0.hasPrefix("state.db.damaged-") })
        #expect(FileManager.default.contents(atPath: scratch.sub(aside)) == Data(garbage))
        #expect(outcome.stderr.contains("3 converted"))
    }
}

/// `--files-from`, `--shard` and `status`, as a migration over several machines uses them.
@Suite("End to end: file lists, shards and status")
struct ShardsAndListsEndToEndTests {
    @Test("find -print0 | --files-from - -0 --base over same-named files in different folders: the tree is kept, nothing is skipped")
    func filesFromFind() throws {
        let scratch = TemporaryDirectory()
        let photo = try StateEndToEndTests.sample("monochrome.heic")
        for folder in ["2019/a", "2019/b", "2020/a", "2020/a/b"] { scratch.file("archive/\(folder)/IMG_0001.HEIC", photo) }
        scratch.file("archive/2019/notes.txt", Array("notes".utf8))
        let list = try ChildProcess.run("/usr/bin/find", [scratch.sub("archive"), "-print0"]).stdout
        let outcome = try Tool.run(["--files-from", "-", "-0", "--base", scratch.sub("archive"), "-o", scratch.sub("out"),
                                    "--report", scratch.sub("r.jsonl")], stdin: list)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for folder in ["2019/a", "2019/b", "2020/a", "2020/a/b"] { #expect(scratch.exists("out/\(folder)/IMG_0001.jpg"), "\(folder)") }
        #expect(try ReportFile(scratch.sub("r.jsonl")).summary?["converted"] as? Int == 4)
        #expect(outcome.stderr.contains("4 converted, 0 copied, 0 skipped, 0 failed"))
    }

    @Test("Four shards with {shard} states convert every file exactly once; status merges them and exits 1 only while a failure is recorded",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
    func shardsAndStatus() throws {
        let scratch = TemporaryDirectory()
        _ = try StateEndToEndTests.tree(scratch, count: 60)
        scratch.file("in/d0/broken.heic", [0, 0, 0, 12] + Array("ftypheic".utf8))
        for k in 0..<4 {
            let outcome = try Tool.run(["--shard", "\(k)/4", "--state", scratch.sub("s-{shard}.db"), "-o", scratch.sub("out"), scratch.sub("in")])
            #expect([0, 1].contains(outcome.status), "\(outcome.stderr)")
        }
        let states = (0..<4).map { scratch.sub("s-\($0).db") }
        let rows = try states.flatMap { try StateEndToEndTests.query($0, "SELECT cast(path AS text) FROM sources") }
        #expect(rows.count == 61 && Set(rows).count == 61, "every file in exactly one shard")
        let status = try Tool.run(["status"] + states)
        #expect(status.status == 1, "a failure is recorded")
        #expect(status.stdoutText.hasPrefix("sources: 61 (60 converted, 1 failed)"), "\(status.stdoutText)")
        #expect(status.stdoutText.contains("broken.heic: "))
        let json = try #require(try JSONSerialization.jsonObject(with: try Tool.run(["status", "--json"] + states).stdout) as? [String: Any])
        #expect((json["sources"] as? [String: Int])?["converted"] == 60)
        #expect((json["runs"] as? [Any])?.count == 4)
        try FileManager.default.removeItem(atPath: scratch.sub("in/d0/broken.heic"))
        let shardOfBroken = try states.firstIndex { try StateEndToEndTests.query($0, "SELECT count(*) FROM sources WHERE status = 'failed'") == ["1"] }
        let k = try #require(shardOfBroken)
        _ = try Tool.run(["--shard", "\(k)/4", "--state", scratch.sub("s-{shard}.db"), "-o", scratch.sub("out"), scratch.sub("in")])
        let after = try Tool.run(["status"] + states)
        #expect(after.status == 0, "the broken file is gone: missing-source, not a failure")
        #expect(after.stdoutText.hasPrefix("sources: 61 (60 converted, 1 missing-source)"), "\(after.stdoutText)")
    }

    @Test("status exits 1 while a shard has no state, or a state's latest run did not end, and says which; 0 once every shard's run ended",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
    func statusOfAnUnfinishedMigration() throws {
        let scratch = TemporaryDirectory()
        _ = try StateEndToEndTests.tree(scratch, count: 20)
        func shard(_ k: Int) throws {
            let outcome = try Tool.run(["--quiet", "--shard", "\(k)/4", "--state", scratch.sub("s-{shard}.db"), "-o", scratch.sub("out"), scratch.sub("in")])
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        for k in 1..<4 { try shard(k) }
        let three = try Tool.run(["status"] + (1..<4).map { scratch.sub("s-\($0).db") })
        #expect(three.status == 1, "shard 0 never ran")
        #expect(three.stdoutText.contains("shards: 3 of 4; no state for 0/4, whose sources no run has met"), "\(three.stdoutText)")
        let json = try #require(try JSONSerialization.jsonObject(with: try Tool.run(["status", "--json"] + (1..<4).map { scratch.sub("s-\($0).db") }).stdout) as? [String: Any])
        #expect(json["missingShards"] as? [Int] == [0] && json["shardCounts"] as? [Int] == [4] && json["complete"] as? Bool == false)
        try shard(0)
        let states = (0..<4).map { scratch.sub("s-\($0).db") }
        let all = try Tool.run(["status"] + states)
        #expect(all.status == 0 && all.stdoutText.contains("shards: 4 of 4\n"), "\(all.stdoutText)")
        // A run killed before its end leaves its row unfinished; one that ran out of disk ends with 75.
        for (exit, said) in [("NULL", "is unfinished (killed, or under way on another machine); rerun it"), ("75", "ended with exit 75")] {
            _ = try StateEndToEndTests.query(states[2], "UPDATE runs SET exit_code = \(exit) WHERE id = (SELECT max(id) FROM runs)")
            let stopped = try Tool.run(["status"] + states)
            #expect(stopped.status == 1 && stopped.stdoutText.contains("incomplete: \(states[2]): its latest run #1 \(said)"), "\(stopped.stdoutText)")
        }
        try shard(2)
        #expect(try Tool.run(["status"] + states).status == 0, "the rerun ended")
    }
}
