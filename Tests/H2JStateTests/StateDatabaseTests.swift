import CSQLite
import Foundation
import H2JTestSupport
import Testing
@testable import H2JState
@testable import H2JSupport

@Suite("State database: schema, records, damage")
struct StateDatabaseTests {
    static func record(_ path: String, status: String = "converted", outputs: [OutputRecord] = []) -> SourceRecord {
        SourceRecord(root: "/archive", path: path, identity: FileIdentity(size: 1234, mtimeNanoseconds: 1_700_000_000_123_456_789,
                                                                         inode: 42, device: 7),
                     sha256: String(repeating: "ab", count: 32), status: status, toolVersion: "0.1.0",
                     options: "metadata=keep;quality=90", startedNanoseconds: 1, finishedNanoseconds: 2, outputs: outputs)
    }

    @Test("A new state has the current schema, in WAL mode; a reopened one keeps its records")
    func createAndReopen() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("state.db")
        do {
            let state = try StateDatabase(path: path)
            #expect(try state.schemaVersion == StateSchema.currentVersion)
            #expect(state.damage == nil)
            let run = try state.beginRun(pid: 1, host: "h", version: "0.1.0", options: "o")
            try state.record(Self.record("a/IMG_1.HEIC", outputs: [OutputRecord(path: "/out/a/IMG_1.jpg", size: 99, inode: 5, mtimeNanoseconds: 3)]), run: run)
        }
        #expect(scratch.exists("state.db-wal") || scratch.exists("state.db"))
        let reopened = try StateDatabase(path: path)
        let found = try #require(try reopened.source(root: "/archive", path: "a/IMG_1.HEIC"))
        #expect(found == Self.record("a/IMG_1.HEIC", outputs: [OutputRecord(path: "/out/a/IMG_1.jpg", size: 99, inode: 5, mtimeNanoseconds: 3)]))
        #expect(try reopened.integrityCheck() == "ok")
        #expect(try reopened.source(root: "/archive", path: "a/none.HEIC") == nil)
    }

    @Test("Closing moves the WAL into the file and removes it (no other connection is open); later calls throw, naming the file")
    func closeConnections() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("state.db")
        let state = try StateDatabase(path: path)
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        try state.record(Self.record("a"), run: run)
        state.closeConnections()
        #expect(!scratch.exists("state.db-wal") && !scratch.exists("state.db-shm"))
        #expect(throws: StateError.self) { try state.source(root: "/archive", path: "a") }
        do {
            _ = try state.finishRun(run, counts: StateDatabase.RunCounts(), exitCode: 0)
            Issue.record("a closed state took a write")
        } catch {
            #expect(error.description.contains(path) && error.description.contains("closed"), "\(error)")
        }
        state.closeConnections()
        // The file alone holds the record: copied without its WAL, it is whole.
        try FileManager.default.copyItem(atPath: path, toPath: scratch.sub("copy.db"))
        #expect(try StateDatabase(path: scratch.sub("copy.db")).source(root: "/archive", path: "a") == Self.record("a"))
    }

    @Test("Paths are bytes: a name that is not UTF-8 and its U+FFFD look-alike are two records")
    func rawPaths() throws {
        let scratch = TemporaryDirectory()
        let state = try StateDatabase(path: scratch.sub("s.db"))
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        let raw = PathBytes.string(Array("caf".utf8) + [0xE9] + Array(".heic".utf8))
        try state.record(Self.record(raw), run: run)
        try state.record(Self.record("caf\u{FFFD}.heic", status: "failed"), run: run)
        #expect(try state.source(root: "/archive", path: raw)?.status == "converted")
        #expect(try state.source(root: "/archive", path: "caf\u{FFFD}.heic")?.status == "failed")
    }

    @Test("Recording again replaces the source and its outputs")
    func replace() throws {
        let scratch = TemporaryDirectory()
        let state = try StateDatabase(path: scratch.sub("s.db"))
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        try state.record(Self.record("x", outputs: [OutputRecord(path: "/o/x.jpg", size: 1, inode: 1, mtimeNanoseconds: 1),
                                                    OutputRecord(path: "/o/x-2.jpg", size: 1, inode: 2, mtimeNanoseconds: 1)]), run: run)
        try state.record(Self.record("x", status: "updated", outputs: [OutputRecord(path: "/o/x.jpg", size: 7, inode: 9, mtimeNanoseconds: 1)]), run: run)
        let found = try #require(try state.source(root: "/archive", path: "x"))
        #expect(found.status == "updated" && found.outputs.count == 1 && found.outputs[0].size == 7)
        // The new output is recorded with its size and inode; the old ones, both of them, are gone.
        #expect(found.outputs.map { "\($0.path) \($0.size) \($0.inode)" } == ["/o/x.jpg 7 9"])
        #expect(try state.sources(root: "/archive", directory: "").flatMap(\.outputs).allSatisfy { $0.path != "/o/x-2.jpg" && $0.size != 1 })
    }

    @Test("A directory's records come in one query; directories the run did not walk are found per root")
    func directoriesAndMissing() throws {
        let scratch = TemporaryDirectory()
        let state = try StateDatabase(path: scratch.sub("s.db"))
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        for name in ["a", "b", "d/x", "d/y", "d/e/z"] {
            try state.record(Self.record(name, outputs: [OutputRecord(path: "/o/\(name).jpg", size: 1, inode: 1, mtimeNanoseconds: 1),
                                                         OutputRecord(path: "/o/\(name)-2.jpg", size: 2, inode: 2, mtimeNanoseconds: 1)]), run: run)
        }
        #expect(try state.sources(root: "/archive", directory: "").map(\.path) == ["a", "b"])
        let inD = try state.sources(root: "/archive", directory: "d")
        #expect(inD.map(\.path) == ["d/x", "d/y"] && inD.allSatisfy { $0.outputs.count == 2 })
        #expect(try state.sources(root: "/archive", directory: "d/e").map(\.path) == ["d/e/z"])
        #expect(try state.sources(root: "/elsewhere", directory: "").isEmpty)
        #expect(try state.unseenDirectories(root: "/archive") == ["", "d", "d/e"])
        _ = try state.sources(root: "/archive", directory: "d", markingSeen: true)
        #expect(try state.unseenDirectories(root: "/archive") == ["", "d/e"])
        #expect(try state.unseenDirectories(root: "/elsewhere").isEmpty)
        try state.markMissing(root: "/archive", path: "d/e/z", run: run)
        #expect(try state.unseenDirectories(root: "/archive") == [""])
        let missing = try #require(try state.source(root: "/archive", path: "d/e/z"))
        #expect(missing.status == "missing-source" && missing.outputs.count == 2)
    }

    @Test("A directory's sources each get exactly their own outputs, in path order: names that are prefixes of others, sources with none between sources with several")
    func outputsMergedToTheirSources() throws {
        let scratch = TemporaryDirectory()
        let state = try StateDatabase(path: scratch.sub("s.db"))
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        let outputs: [String: [String]] = ["d/a": ["/o/a-2.jpg", "/o/a.jpg"], "d/a.b": [], "d/ab": ["/o/ab.jpg"], "d/b": [],
                                           "d/c": ["/o/c.jpg", "/o/c-2.jpg", "/o/c-3.jpg"], "d0/a": ["/o/d0a.jpg"]]
        for (path, paths) in outputs {
            try state.record(Self.record(path, outputs: paths.enumerated().map {
                OutputRecord(path: $1, size: $0, inode: $0, mtimeNanoseconds: 1)
            }), run: run)
        }
        let found = try state.sources(root: "/archive", directory: "d")
        #expect(found.map(\.path) == ["d/a", "d/a.b", "d/ab", "d/b", "d/c"])
        for record in found {
            #expect(record.outputs.map(\.path) == outputs[record.path]!.sorted(), "\(record.path)")
        }
        #expect(try state.sourcesByName(root: "/archive", directory: "d", options: "o")["c"]?.outputs.count == 3)
        #expect(try state.source(root: "/archive", path: "d0/a")?.outputs.map(\.path) == ["/o/d0a.jpg"])
    }

    @Test("A directory's records carry what a run needs (not the reason, error code, tool version or times); the options are the record's own, or the run's when the same")
    func directoryRecordsFewestColumns() throws {
        let scratch = TemporaryDirectory()
        let state = try StateDatabase(path: scratch.sub("s.db"))
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        var failed = Self.record("d/failed", status: "failed")
        failed.reason = "why"
        failed.errorCode = "corrupt-container"
        failed.ctimeNanoseconds = 5
        failed.width = 3
        try state.record(failed, run: run)
        var other = Self.record("d/other", outputs: [OutputRecord(path: "/o/other.jpg", size: 9, sha256: "cd", inode: 4, mtimeNanoseconds: 1)])
        other.options = "metadata=strip"
        try state.record(other, run: run)
        let found = try state.sources(root: "/archive", directory: "d", options: "metadata=keep;quality=90")
        #expect(found.map(\.options) == ["metadata=keep;quality=90", "metadata=strip"])
        #expect(found[0].reason == nil && found[0].errorCode == nil && found[0].toolVersion == "" && found[0].startedNanoseconds == 0)
        #expect(found[0].status == "failed" && found[0].ctimeNanoseconds == 5 && found[0].width == 3 && found[0].identity == failed.identity)
        #expect(found[1].outputs == other.outputs && found[1].sha256 == other.sha256)
        #expect(try state.source(root: "/archive", path: "d/failed") == failed)
    }

    @Test("A damaged state file is moved aside and reported, never silently recreated; its data is kept")
    func damaged() throws {
        let scratch = TemporaryDirectory()
        let garbage = [UInt8](repeating: 0x5A, count: 8192)
        let path = scratch.file("state.db", garbage)
        let state = try StateDatabase(path: path)
        let damage = try #require(state.damage)
        #expect(damage.hasPrefix("\(path) was damaged ("))
        let aside = try #require(scratch.files().first { $0.hasPrefix("state.db.damaged-") })
        #expect(FileManager.default.contents(atPath: scratch.sub(aside)) == Data(garbage))
        #expect(try state.schemaVersion == StateSchema.currentVersion)
    }

    @Test("An empty (0-byte) state file is damaged, not a new database: moved aside and reported")
    func emptyFileIsDamaged() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.file("state.db", [])
        let state = try StateDatabase(path: path)
        #expect(state.damage?.hasPrefix("\(path) was damaged (it is empty (0 bytes)); it was moved to \(path).damaged-") == true, "\(state.damage ?? "")")
        #expect(scratch.files().contains { $0.hasPrefix("state.db.damaged-") })
        #expect(try state.schemaVersion == StateSchema.currentVersion)
    }

    /// A state of a few records whose last run finished (when `finished`), closed (so its
    /// WAL is copied in), then with the `sources` table's root page overwritten: the
    /// header stays sound, the pages do not.
    static func stateWithDamagedPage(_ scratch: TemporaryDirectory, finished: Bool) throws -> String {
        let path = scratch.sub("state.db")
        do {
            let state = try StateDatabase(path: path)
            let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
            for name in ["a", "b", "c"] { try state.record(Self.record(name), run: run) }
            if finished { try state.finishRun(run, counts: StateDatabase.RunCounts(), exitCode: 0) }
        }
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(handle, "SELECT rootpage FROM sqlite_master WHERE name = 'sources'", -1, &statement, nil) == SQLITE_OK)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        let page = Int(sqlite3_column_int64(statement, 0))
        sqlite3_finalize(statement)
        sqlite3_close(handle)
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: UInt64((page - 1) * 4096))
        try file.write(contentsOf: Data(repeating: 0x42, count: 4096))
        try file.close()
        #expect(!scratch.exists("state.db-wal"))
        return path
    }

    @Test("After a finished run only the header is checked; after an unfinished one, or with a full check (--recheck), a damaged page is found and the file moved aside")
    func pagesCheckedWhenNeeded() throws {
        let finished = TemporaryDirectory()
        let state = try StateDatabase(path: Self.stateWithDamagedPage(finished, finished: true))
        #expect(state.damage == nil)
        // Its queries meet the damaged page: the run is then not recorded finished, so the next opening checks the pages.
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        #expect(throws: StateError.self) { _ = try state.sources(root: "/archive", directory: "") }
        try state.finishRun(run, counts: StateDatabase.RunCounts(), exitCode: 1)
        let next = try StateDatabase(path: finished.sub("state.db"))
        #expect(next.damage?.contains("malformed") == true, "\(next.damage ?? "")")

        let unfinished = TemporaryDirectory()
        let killed = try StateDatabase(path: Self.stateWithDamagedPage(unfinished, finished: false))
        #expect(killed.damage?.contains("malformed") == true, "\(killed.damage ?? "")")
        #expect(unfinished.files().contains { $0.hasPrefix("state.db.damaged-") })

        let rechecked = TemporaryDirectory()
        let full = try StateDatabase(path: Self.stateWithDamagedPage(rechecked, finished: true), fullCheck: true)
        #expect(full.damage?.contains("malformed") == true, "\(full.damage ?? "")")
        #expect(try full.integrityCheck() == "ok")
    }

    @Test("The header check: SQLite's magic, a page size SQLite writes, whole pages, and not cut short of the pages it counts")
    func header() {
        var header = Array("SQLite format 3".utf8) + [0, 0x10, 0x00] + [UInt8](repeating: 0, count: 82)
        func put(_ value: Int, at offset: Int) { for i in 0..<4 { header[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) } }
        put(7, at: 24)
        put(3, at: 28)
        put(7, at: 92)
        #expect(SQLiteHeader.problem(header, fileSize: 3 * 4096) == nil)
        #expect(SQLiteHeader.problem(header, fileSize: 5 * 4096) == nil)
        #expect(SQLiteHeader.problem(header, fileSize: 2 * 4096) == "it is 8192 bytes, cut short of the 3 pages its header counts")
        #expect(SQLiteHeader.problem(header, fileSize: 3 * 4096 + 10) == "it is 12298 bytes, not a whole number of 4096-byte pages")
        // With a WAL holding pages, the sizes are not checked.
        #expect(SQLiteHeader.problem(header, fileSize: nil) == nil)
        // A page count whose version-valid-for is stale is not used.
        put(8, at: 24)
        #expect(SQLiteHeader.problem(header, fileSize: 4096) == nil)
        #expect(SQLiteHeader.problem(Array(header.prefix(50)), fileSize: 4096) == "it is not an SQLite database (its header is not SQLite's)")
        header[16] = 0x03
        #expect(SQLiteHeader.problem(header, fileSize: 4096) == "its header declares a page size of 768")
        header[0] = UInt8(ascii: "s")
        #expect(SQLiteHeader.problem(header, fileSize: 4096) == "it is not an SQLite database (its header is not SQLite's)")
    }

    @Test("A full disk is ENOSPC, whatever SQLite's message; other failures name no resource")
    func resourceErrno() {
        #expect(StateError(path: "/s.db", code: SQLITE_FULL, message: "database or disk is full").resourceErrno == ENOSPC)
        #expect(StateError(path: "/s.db", code: SQLITE_IOERR | (3 << 8), message: "disk I/O error", systemErrno: EDQUOT).resourceErrno == EDQUOT)
        #expect(StateError(path: "/s.db", code: SQLITE_CORRUPT, message: "malformed").resourceErrno == nil)
        #expect(StateError(path: "/s.db", code: 0, message: "integrity check: bad").resourceErrno == nil)
        // The code each carries: a resource that ran out stops the run; the rest is the state's.
        #expect(StateError(path: "/s.db", code: SQLITE_FULL, message: "database or disk is full").code == .diskFull)
        #expect(StateError(path: "/s.db", code: SQLITE_CORRUPT, message: "malformed").code == .stateUnusable)
    }

    @Test("A handed-off source is recorded as such and no longer counted or looked for; a kept one keeps its reason, and a changed one becomes source-changed; a new record clears both")
    func handOffRecords() throws {
        let scratch = TemporaryDirectory()
        let state = try StateDatabase(path: scratch.sub("s.db"))
        let run = try state.beginRun(pid: 1, host: "h", version: "v", options: "o")
        var gone = Self.record("d/gone.heic")
        gone.ctimeNanoseconds = 1_700_000_000_987_654_321
        try state.record(gone, run: run)
        try state.record(Self.record("e/kept.heic"), run: run)
        try state.record(Self.record("e/changed.heic"), run: run)
        try state.recordHandOff(root: "/archive", source: "d/gone.heic", action: "deleted", destination: nil, run: run)
        try state.recordKept(root: "/archive", source: "e/kept.heic", reason: "its conversion warned", changed: false)
        try state.recordKept(root: "/archive", source: "e/changed.heic", reason: "source-changed: …", changed: true)
        let found = try #require(try state.source(root: "/archive", path: "d/gone.heic"))
        #expect(found.handedOff == "deleted" && found.kept == nil && found.ctimeNanoseconds == 1_700_000_000_987_654_321)
        #expect(try state.sourceCount(root: "/archive") == 2)
        #expect(try state.unseenDirectories(root: "/archive") == ["e"])
        #expect(try state.source(root: "/archive", path: "e/kept.heic").map { "\($0.status) \($0.kept ?? "")" } == "converted its conversion warned")
        #expect(try state.source(root: "/archive", path: "e/changed.heic")?.status == SourceRecord.sourceChanged)
        try state.record(Self.record("e/kept.heic"), run: run)
        #expect(try state.source(root: "/archive", path: "e/kept.heic")?.kept == nil)
    }

    @Test("A state from a newer heic2jpg (a higher schema version) is refused and left as it is")
    func newerSchema() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("s.db")
        do { _ = try StateDatabase(path: path) }
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA user_version = 99", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        #expect(throws: StateError.self) { _ = try StateDatabase(path: path) }
        #expect(!scratch.files().contains { $0.contains("damaged") })
    }
}

@Suite("State database: migrations")
struct StateMigrationTests {
    @Test("A version-1 state migrates to the current version and keeps its records")
    func fromVersion1() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("old.db")
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, StateSchema.migrations[0].sql + "; PRAGMA user_version = 1;", nil, nil, nil) == SQLITE_OK)
        let insert = """
            INSERT INTO runs (id, started_ns, pid, host, version, options) VALUES (1, 1, 1, 'h', 'v', 'o');
            INSERT INTO sources VALUES (X'2F61', X'782E68656963', 1, 2, 3, 4, NULL, 'converted', NULL, NULL, 'v', 'o', 1, 2, 1);
            """
        #expect(sqlite3_exec(handle, insert, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        // Read only (a dry run), it is neither migrated nor changed: refused, naming the versions.
        let unmigrated = FileManager.default.contents(atPath: path)
        #expect { _ = try StateDatabase(path: path, readOnly: true) } throws: { "\($0)".contains("schema version 1") }
        #expect(FileManager.default.contents(atPath: path) == unmigrated)
        let state = try StateDatabase(path: path)
        #expect(try state.schemaVersion == StateSchema.currentVersion)
        let reader = try StateDatabase(path: path, readOnly: true)
        #expect(try reader.source(root: "/a", path: "x.heic")?.status == "converted")
        let record = try #require(try state.source(root: "/a", path: "x.heic"))
        #expect(record.status == "converted" && !record.complete && record.width == nil)
    }

    @Test("A version-2 state migrates: each source's directory is filled in from its path, bytes kept")
    func fromVersion2() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("old.db")
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, StateSchema.migrations[0].sql + ";" + StateSchema.migrations[1].sql + "; PRAGMA user_version = 2;",
                             nil, nil, nil) == SQLITE_OK)
        // Sources at the root, one level down, and two levels down in a directory whose name is not UTF-8 (caf\xE9).
        let insert = """
            INSERT INTO runs (id, started_ns, pid, host, version, options) VALUES (1, 1, 1, 'h', 'v', 'o');
            INSERT INTO sources (root, path, size, mtime_ns, inode, device, status, tool_version, options, started_ns, finished_ns, run_id)
            VALUES (X'2F61', X'782E68656963', 1, 2, 3, 4, 'converted', 'v', 'o', 1, 2, 1),
                   (X'2F61', X'642F792E68656963', 1, 2, 3, 4, 'converted', 'v', 'o', 1, 2, 1),
                   (X'2F61', X'636166E92F652F7A2E68656963', 1, 2, 3, 4, 'converted', 'v', 'o', 1, 2, 1);
            """
        #expect(sqlite3_exec(handle, insert, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let state = try StateDatabase(path: path)
        #expect(try state.schemaVersion == StateSchema.currentVersion)
        let accented = PathBytes.string(Array("caf".utf8) + [0xE9] + Array("/e".utf8))
        #expect(try state.sources(root: "/a", directory: "").map(\.path) == ["x.heic"])
        #expect(try state.sources(root: "/a", directory: "d").map(\.path) == ["d/y.heic"])
        #expect(try state.sources(root: "/a", directory: accented).map(\.path) == [accented + "/z.heic"])
    }
}
