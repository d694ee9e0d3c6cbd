#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import H2JSupport

/// The run state of `--state FILE`: an SQLite database in WAL mode that remembers every
/// source, how its conversion ended and its outputs, so a rerun converts only what
/// changed. Two connections, each used from any thread under its own lock: the writer
/// records results; the reader answers the walk's lookups, a directory's records at a
/// time, each call in a read transaction of its own (so a snapshot never outlives the
/// call and never holds back the writer's checkpoints), and holds the run's table of
/// directories met.
///
/// Opening checks the file's header (`SQLiteHeader`) and, only when the last run did not
/// finish (killed, or it met a damaged page), its pages (`PRAGMA quick_check`, a read of
/// the whole file); `fullCheck` (`--recheck`) always runs `PRAGMA integrity_check`. A
/// damaged file (one that fails a check, is not a database, is empty, or cannot be read)
/// is never silently recreated:
/// it is moved aside (`FILE.damaged-<time>`, with its `-wal` and `-shm`), a new state
/// is started, and `damage` says what happened, for the run to report. (SQLite itself
/// would take a 0-byte file for a new, empty database, losing the history unsaid.)
///
/// Opened `readOnly` (a dry run), the file is read as it is: never written, migrated or
/// moved aside; one that is damaged or of another schema version is an error.
package final class StateDatabase: @unchecked Sendable {
    package let path: String
    /// Why the previous file was moved aside, when it was.
    package let damage: String?
    private let connection: SQLiteConnection
    private let lock = Lock()
    private let reader: SQLiteConnection
    private let readLock = Lock()
    /// A query met a damaged page (`SQLITE_CORRUPT`, `SQLITE_NOTADB`): the run is then not
    /// recorded finished, so the next one checks the pages.
    private var sawDamage = false
    private let damageLock = Lock()

    package init(path: String, fullCheck: Bool = false, readOnly: Bool = false) throws(StateError) {
        self.path = path
        var damage: String?
        var opened: SQLiteConnection
        do throws(StateError) {
            if let unusable = Self.unusableFile(path) { throw StateError(path: path, code: 0, message: unusable) }
            opened = try Self.openChecked(path, full: fullCheck, readOnly: readOnly)
        } catch where !readOnly && (error.resultCode == 0 || [SQLITE_CORRUPT, SQLITE_NOTADB].contains(error.resultCode & 0xFF)) {
            let aside = path + ".damaged-\(POSIX.utcTime(compact: true))"
            for suffix in ["", "-wal", "-shm"] where POSIX.fileInfo(path + suffix) != nil {
                guard POSIX.renameNoReplace(path + suffix, aside + suffix) == 0 else {
                    throw StateError(path: path, code: 0, message: "is damaged (\(error.message)) and cannot be moved aside: \(POSIX.lastError())")
                }
            }
            damage = "\(path) was damaged (\(error.message)); it was moved to \(aside) and a new state was started"
            opened = try Self.openChecked(path, full: fullCheck, readOnly: false)
        }
        connection = opened
        self.damage = damage
        reader = try SQLiteConnection(path: path, create: false, readOnly: readOnly)
        if readOnly {
            let version = try schemaVersion
            guard version == StateSchema.currentVersion else {
                throw StateError(path: path, code: 0, message: "has schema version \(version), not this heic2jpg's \(StateSchema.currentVersion): a run without --dry-run migrates it")
            }
        } else {
            try migrate()
        }
        try reader.execute("CREATE TEMP TABLE seen_dirs (root BLOB NOT NULL, dir BLOB NOT NULL, PRIMARY KEY (root, dir)) WITHOUT ROWID")
    }

    /// Why the file at `path` cannot be a state before SQLite opens it: it is empty, its
    /// first page cannot be read, or its header is not a sound SQLite header
    /// (`SQLiteHeader`). nil when it can be, or when nothing is there.
    private static func unusableFile(_ path: String) -> String? {
        guard let info = POSIX.fileInfo(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        if info.st_size == 0 { return "it is empty (0 bytes)" }
        let fd = POSIX.openFile(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "it cannot be read: \(POSIX.lastError())" }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: SQLiteHeader.length)
        let count = pread(fd, &header, header.count, 0)
        guard count >= 0 else { return "it cannot be read: \(POSIX.lastError())" }
        let walHoldsPages = (POSIX.fileInfo(path + "-wal")?.st_size ?? 0) > 0
        return SQLiteHeader.problem(Array(header.prefix(count)), fileSize: walHoldsPages ? nil : Int(info.st_size))
    }

    /// Opens `path` (`readOnly`: as it is, without creating it or setting its journal
    /// mode) and checks its pages when `full` or when its last run did not finish
    /// (`quick_check`; `integrity_check` when `full`); a check that fails is an error
    /// with code 0.
    private static func openChecked(_ path: String, full: Bool, readOnly: Bool) throws(StateError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, create: !readOnly, readOnly: readOnly)
        let finished = try lastRunFinished(connection)
        if full || !finished {
            let check = try connection.rows(full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
                .map { $0.first?.text ?? "" }.joined(separator: "; ")
            guard check == "ok" else { throw StateError(path: path, code: 0, message: "integrity check: \(check.isEmpty ? "no answer" : check)") }
        }
        if !readOnly { try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON") }
        return connection
    }

    /// The clean-shutdown marker: the latest run recorded its finish (`finishRun`, which
    /// a run that met damage leaves unset). false for a file with no run yet.
    private static func lastRunFinished(_ connection: SQLiteConnection) throws(StateError) -> Bool {
        guard try connection.rows("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runs'").first?.first?.integer == 1
        else { return false }
        return try connection.rows("SELECT finished_ns IS NOT NULL FROM runs ORDER BY id DESC LIMIT 1").first?.first?.integer == 1
    }

    /// Applies the migrations this database lacks; refuses one from a newer heic2jpg.
    private func migrate() throws(StateError) {
        let version = try connection.rows("PRAGMA user_version").first?.first?.integer ?? 0
        guard version <= StateSchema.currentVersion else {
            throw StateError(path: path, code: 0, message: "has schema version \(version), newer than this heic2jpg's \(StateSchema.currentVersion); use a newer heic2jpg")
        }
        for (index, migration) in StateSchema.migrations.enumerated().dropFirst(version) {
            try connection.transaction { () throws in
                try connection.execute(migration.sql)
                try migration.backfill?(connection)
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// The schema version (after migration, `StateSchema.currentVersion`).
    package var schemaVersion: Int {
        get throws(StateError) { try locked { try connection.rows("PRAGMA user_version").first?.first?.integer ?? 0 } }
    }

    // MARK: - Runs

    /// Records the start of a run, and the shard it takes (`--shard K/N`, nil for all);
    /// returns its ID.
    package func beginRun(pid: Int32, host: String, version: String, options: String,
                          shard: (index: Int, count: Int)? = nil) throws(StateError) -> Int {
        try locked {
            try connection.transaction { () throws -> Int in
                _ = try connection.rows("""
                    INSERT INTO runs (started_ns, pid, host, version, options, shard_index, shard_count) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(Self.now()), .integer(Int(pid)), .text(host), .text(version), .text(options),
                          shard.map { .integer($0.index) } ?? .null, shard.map { .integer($0.count) } ?? .null])
                return try connection.rows("SELECT last_insert_rowid()").first?.first?.integer ?? 0
            }
        }
    }

    /// Counts of one run, as its summary gives them.
    package struct RunCounts: Sendable, Equatable {
        package var converted = 0, updated = 0, copied = 0, skipped = 0, failed = 0, missing = 0
        package init() {}
    }

    /// Records the run's end: its counts, exit code and, unless a query met a damaged page,
    /// its finish time (the marker that spares the next run the page check).
    package func finishRun(_ id: Int, counts: RunCounts, exitCode: Int32) throws(StateError) {
        try locked {
            _ = try connection.rows("""
                UPDATE runs SET finished_ns = ?, converted = ?, updated = ?, copied = ?, skipped = ?, failed = ?,
                missing = ?, exit_code = ? WHERE id = ?
                """, [damageLock.withLock { sawDamage } ? .null : .integer(Self.now()), .integer(counts.converted), .integer(counts.updated), .integer(counts.copied),
                      .integer(counts.skipped), .integer(counts.failed), .integer(counts.missing), .integer(Int(exitCode)),
                      .integer(id)])
        }
    }

    // MARK: - Sources

    /// The record of the source at `path` under `root`, with its outputs; nil if none.
    package func source(root: String, path: String) throws(StateError) -> SourceRecord? {
        try reading {
            let bytes = PathBytes.bytes(path)
            var found: SourceRecord?
            try records(root: root, sources: ("path = ?", [.blob(bytes)]),
                        outputs: ("source_dir = ? AND source = ?", [.blob(SourceRecord.splitBytes(bytes).directory), .blob(bytes)])) {
                found = found ?? $0
            }
            return found
        }
    }

    /// Every recorded source in `directory` (relative to `root`; empty for the root
    /// itself), with its outputs, in path order: one range scan of each table. With
    /// `markingSeen` the directory also goes into the run's table of directories met (a
    /// row of the reader's temporary table, no write to the file), in the same
    /// transaction: `unseenDirectories` leaves it out. Records are read with the fewest
    /// columns: what a run's verdict, planner and hand-off need, not the error code,
    /// reason, tool version, start and finish times, or why a hand-off kept the source
    /// (those are empty); a record whose options are `options` (the run's) shares that
    /// string rather than reading its own.
    package func sources(root: String, directory: String, markingSeen: Bool = false, options: String? = nil) throws(StateError) -> [SourceRecord] {
        var found: [SourceRecord] = []
        try eachSource(root: root, directory: directory, markingSeen: markingSeen, options: options) { found.append($0) }
        return found
    }

    /// The walk's read of a directory: `sources(root:directory:markingSeen: true:options:)`
    /// by name (the path's last component), each record built once and moved in. Two names
    /// of other bytes can be one `String` (canonically equivalent): the first, in path
    /// order, stays.
    package func sourcesByName(root: String, directory: String, options: String) throws(StateError) -> [String: SourceRecord] {
        var found: [String: SourceRecord] = [:]
        try eachSource(root: root, directory: directory, markingSeen: true, options: options) { record in
            let name = SourceRecord.split(record.path).name
            if let first = found.updateValue(record, forKey: name) { found[name] = first }
        }
        return found
    }

    private func eachSource(root: String, directory: String, markingSeen: Bool, options: String?,
                            _ body: (consuming SourceRecord) -> Void) throws(StateError) {
        try reading {
            let rootValue = SQLValue.blob(PathBytes.bytes(root)), directory = SQLValue.blob(PathBytes.bytes(directory))
            if markingSeen {
                _ = try reader.rows("INSERT OR IGNORE INTO temp.seen_dirs (root, dir) VALUES (?, ?)", [rootValue, directory])
            }
            try records(root: root, sources: ("dir = ?", [directory]), outputs: ("source_dir = ?", [directory]),
                        fewest: options ?? "", body)
        }
    }

    /// Calls `body` with each source under `root` that matches `sources` (a condition and
    /// its parameters, within one directory), in path order, each with its outputs among those matching
    /// `outputs`. Both come sorted by source path and are merged as they are stepped,
    /// their paths compared in place. Sources are ordered by
    /// `name`, which within a directory is path order: ordering by `path` makes SQLite
    /// walk the whole root in the path index instead of the directory's key range. With
    /// `fewest` (the options a record may share), records carry only what
    /// `sources(root:directory:)` says.
    private func records(root: String, sources: (condition: String, values: [SQLValue]),
                         outputs: (condition: String, values: [SQLValue]), fewest: String? = nil,
                         _ body: (consuming SourceRecord) -> Void) throws(StateError) {
        let rootValue = SQLValue.blob(PathBytes.bytes(root))
        // The options are read only where they are not `fewest`'s (NULL then); the last six only when all are.
        let columns = fewest == nil ? "options, error_code, reason, tool_version, started_ns, finished_ns, kept"
            : "CASE WHEN options = ? THEN NULL ELSE options END"
        try reader.stepping("""
            SELECT source, path, size, sha256, kind, inode, mtime_ns FROM outputs
            WHERE root = ? AND \(outputs.condition) ORDER BY source, path
            """, [rootValue] + outputs.values) { (outputRows: SQLCursor) throws(StateError) in
            var outputPending = try outputRows.next()
            try reader.stepping("""
                SELECT path, size, mtime_ns, inode, device, sha256, status, complete, width, height, ctime_ns, handed_off,
                \(columns) FROM sources WHERE root = ? AND \(sources.condition) ORDER BY name
                """, (fewest.map { [.text($0)] } ?? []) + [rootValue] + sources.values) { (sourceRows: SQLCursor) throws(StateError) in
                while try sourceRows.next() {
                    let outputs = try Self.outputs(of: sourceRows.row.bytes(0), outputRows, pending: &outputPending)
                    body(Self.record(sourceRows.row, root: root, fewest: fewest, outputs: outputs))
                }
            }
        }
    }

    /// The outputs of the source whose path is `path`: the rows of `outputs` (from
    /// `pending`, whether it is on a row) with that source, stepping past those of sources
    /// before it.
    private static func outputs(of path: UnsafeRawBufferPointer, _ outputs: SQLCursor,
                                pending: inout Bool) throws(StateError) -> [OutputRecord] {
        var found: [OutputRecord] = []
        while pending, outputs.row.bytes(0).lexicographicallyPrecedes(path) { pending = try outputs.next() }
        while pending, outputs.row.bytes(0).elementsEqual(path) {
            let output = outputs.row
            found.append(OutputRecord(path: output.path(1), size: output.integer(2), sha256: output.text(3),
                                      kind: output.text(4) ?? "", inode: output.integer(5), mtimeNanoseconds: output.integer(6)))
            pending = try outputs.next()
        }
        return found
    }

    /// The record of the source at `row` (of `records`' source query) with `outputs`.
    /// Made in one initialiser call by a function that cannot throw: field by field, or
    /// returned through a typed throw, it costs a copy of the record.
    private static func record(_ row: SQLRow, root: String, fewest: String?, outputs: [OutputRecord]) -> SourceRecord {
        let all = fewest == nil
        return SourceRecord(root: root, path: row.path(0),
                            identity: FileIdentity(size: row.integer(1), mtimeNanoseconds: row.integer(2),
                                                   inode: row.integer(3), device: row.integer(4)),
                            sha256: row.text(5), status: row.text(6) ?? "",
                            errorCode: all ? row.text(13) : nil, reason: all ? row.text(14) : nil,
                            toolVersion: all ? row.text(15) ?? "" : "", options: row.text(12) ?? fewest ?? "",
                            startedNanoseconds: all ? row.integer(16) : 0, finishedNanoseconds: all ? row.integer(17) : 0,
                            outputs: outputs, complete: row.integer(7) == 1, width: row.optionalInteger(8),
                            height: row.optionalInteger(9), ctimeNanoseconds: row.optionalInteger(10),
                            handedOff: row.text(11), kept: all ? row.text(18) : nil)
    }

    /// Records (or replaces) a source and its outputs, in one transaction.
    package func record(_ source: SourceRecord, run: Int) throws(StateError) {
        try locked {
            try connection.transaction { () throws in
                let path = PathBytes.bytes(source.path)
                let (directory, name) = SourceRecord.splitBytes(path)
                let root = SQLValue.blob(PathBytes.bytes(source.root))
                let key: [SQLValue] = [root, .blob(directory), .blob(path)]
                // A handed-off source's record, with its outputs, is kept under a name no walk
                // meets (a NUL in it): its outputs stay known as the only copy of a photo gone.
                // (Blobs built here: SQL's `||` makes text of them, which ends at a NUL.)
                let retired: [UInt8] = [0] + Array("handed-off-\(run)-\(Self.now())".utf8)
                _ = try connection.rows("""
                    UPDATE outputs SET source = ? WHERE root = ? AND source_dir = ? AND source = ?
                    AND EXISTS (SELECT 1 FROM sources WHERE root = ? AND dir = ? AND name = ? AND handed_off IS NOT NULL)
                    """, [.blob(path + retired)] + key + [root, .blob(directory), .blob(name)])
                _ = try connection.rows("""
                    UPDATE sources SET name = ?, path = ? WHERE root = ? AND dir = ? AND name = ? AND handed_off IS NOT NULL
                    """, [.blob(name + retired), .blob(path + retired), root, .blob(directory), .blob(name)])
                _ = try connection.rows("DELETE FROM outputs WHERE root = ? AND source_dir = ? AND source = ?", key)
                _ = try connection.rows("""
                    INSERT OR REPLACE INTO sources (root, dir, name, path, size, mtime_ns, inode, device, sha256, status,
                    error_code, reason, tool_version, options, started_ns, finished_ns, run_id, complete, width, height,
                    ctime_ns, handed_off, kept)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [root, .blob(directory), .blob(name), .blob(path)] + [.integer(source.identity.size), .integer(source.identity.mtimeNanoseconds),
                                .integer(source.identity.inode), .integer(source.identity.device), Self.optional(source.sha256),
                                .text(source.status), Self.optional(source.errorCode), Self.optional(source.reason),
                                .text(source.toolVersion), .text(source.options), .integer(source.startedNanoseconds),
                                .integer(source.finishedNanoseconds), .integer(run), .integer(source.complete ? 1 : 0),
                                source.width.map(SQLValue.integer) ?? .null, source.height.map(SQLValue.integer) ?? .null,
                                source.ctimeNanoseconds.map(SQLValue.integer) ?? .null, Self.optional(source.handedOff),
                                Self.optional(source.kept)])
                for output in source.outputs {
                    _ = try connection.rows("INSERT OR REPLACE INTO outputs (root, source_dir, source, path, size, sha256, kind, inode, mtime_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                            key + [.blob(PathBytes.bytes(output.path)), .integer(output.size), Self.optional(output.sha256),
                                                   .text(output.kind), .integer(output.inode), .integer(output.mtimeNanoseconds)])
                }
            }
        }
    }

    /// The directories under `root` that hold recorded sources (not already
    /// `missing-source`, nor handed off) and that this run did not enter (`sources(markingSeen:)`), in
    /// order: a vanished directory's sources are found here. The directories are stepped
    /// through in the key's order, one search each (a skip-scan), and only an unseen one's
    /// rows are read: not every row of the root.
    package func unseenDirectories(root: String) throws(StateError) -> [String] {
        try reading {
            try reader.rows("""
                WITH RECURSIVE dirs(dir) AS (
                    SELECT min(dir) FROM sources WHERE root = ?1
                    UNION ALL
                    SELECT (SELECT min(dir) FROM sources WHERE root = ?1 AND dir > dirs.dir) FROM dirs WHERE dirs.dir IS NOT NULL)
                SELECT dir FROM dirs WHERE dir IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM temp.seen_dirs t WHERE t.root = ?1 AND t.dir = dirs.dir)
                AND EXISTS (SELECT 1 FROM sources s WHERE s.root = ?1 AND s.dir = dirs.dir AND s.status != 'missing-source'
                            AND s.handed_off IS NULL)
                ORDER BY dir
                """, [.blob(PathBytes.bytes(root))]).compactMap { $0.first?.blob.map(PathBytes.string) }
        }
    }

    /// How many sources are recorded under `root`, not counting `missing-source` or
    /// handed-off ones.
    package func sourceCount(root: String) throws(StateError) -> Int {
        try reading {
            try reader.rows("SELECT count(*) FROM sources WHERE root = ? AND status != 'missing-source' AND handed_off IS NULL",
                            [.blob(PathBytes.bytes(root))]).first?.first?.integer ?? 0
        }
    }

    /// Marks a recorded source `missing-source`; its outputs stay recorded.
    package func markMissing(root: String, path: String, run: Int) throws(StateError) {
        try locked {
            _ = try connection.rows("UPDATE sources SET status = 'missing-source', error_code = NULL, reason = ?, run_id = ?, finished_ns = ? WHERE root = ? AND path = ?",
                                    [.text("the source is gone; its outputs are kept"), .integer(run), .integer(Self.now()),
                                     .blob(PathBytes.bytes(root)), .blob(PathBytes.bytes(path))])
        }
    }

    /// Records an output's SHA-256 (verified before a hand-off), durably.
    package func recordOutputDigest(root: String, source: String, output: String, sha256: String) throws(StateError) {
        try locked {
            let sourceBytes = PathBytes.bytes(source)
            _ = try connection.rows("UPDATE outputs SET sha256 = ? WHERE root = ? AND source_dir = ? AND source = ? AND path = ?",
                                    [.text(sha256), .blob(PathBytes.bytes(root)), .blob(SourceRecord.splitBytes(sourceBytes).directory),
                                     .blob(sourceBytes), .blob(PathBytes.bytes(output))])
        }
    }

    /// Records that a source was deleted, or moved to `destination`, in one transaction:
    /// a row of `handoffs`, and the source's `handed_off`, so it is never `missing-source`.
    package func recordHandOff(root: String, source: String, action: String, destination: String?, run: Int) throws(StateError) {
        try locked {
            try connection.transaction { () throws in
                let key: [SQLValue] = [.blob(PathBytes.bytes(root)), .blob(PathBytes.bytes(source))]
                _ = try connection.rows("INSERT INTO handoffs (root, source, action, destination, at_ns, run_id) VALUES (?, ?, ?, ?, ?, ?)",
                                        key + [.text(action), destination.map { .blob(PathBytes.bytes($0)) } ?? .null,
                                               .integer(Self.now()), .integer(run)])
                _ = try connection.rows("UPDATE sources SET handed_off = ?, kept = NULL WHERE root = ? AND path = ?", [.text(action)] + key)
            }
        }
    }

    /// The source (its root and path joined) that recorded `output` (absolute) and was
    /// handed off since, if any: that file is the only copy left of a photo that is gone.
    package func handedOffSource(ofOutput output: String) throws(StateError) -> String? {
        try reading {
            try reader.rows("""
                SELECT s.root, s.path FROM outputs o JOIN sources s ON s.root = o.root AND s.dir = o.source_dir AND s.path = o.source
                WHERE o.path = ? AND s.handed_off IS NOT NULL LIMIT 1
                """, [.blob(PathBytes.bytes(output))]).first.flatMap { row in
                guard row.count == 2, let root = row[0].blob, let path = row[1].blob else { return nil }
                let source = PathBytes.string(root) + "/" + PathBytes.string(Array(path.prefix { $0 != 0 }))
                return source
            }
        }
    }

    /// Records why the hand-off kept a source; `changed` (it is not the file converted)
    /// also makes its status `source-changed`, so the next run converts it again.
    package func recordKept(root: String, source: String, reason: String, changed: Bool) throws(StateError) {
        try locked {
            _ = try connection.rows("""
                UPDATE sources SET kept = ?, status = CASE WHEN ? THEN '\(SourceRecord.sourceChanged)' ELSE status END
                WHERE root = ? AND path = ?
                """, [.text(reason), .integer(changed ? 1 : 0), .blob(PathBytes.bytes(root)), .blob(PathBytes.bytes(source))])
        }
    }

    /// Makes every commit durable at once (`synchronous = FULL`): before a hand-off, the
    /// record of a verified output must survive a power cut.
    package func makeCommitsDurable() throws(StateError) {
        try locked { try connection.execute("PRAGMA synchronous = FULL") }
    }

    /// Closes both connections, the writer last: as the last connection to the file, it
    /// moves the WAL's pages into the file and removes the WAL, so a finished run leaves
    /// the state in one file (a copy of it alone is whole). Later calls throw.
    package func closeConnections() {
        readLock.withLock { reader.close() }
        lock.withLock { connection.close() }
    }

    /// `PRAGMA integrity_check`'s answer (`ok` when sound).
    package func integrityCheck() throws(StateError) -> String {
        try locked { try connection.rows("PRAGMA integrity_check").map { $0.first?.text ?? "" }.joined(separator: "; ") }
    }

    // MARK: - Helpers

    /// Runs `body` on the reader, holding its lock, in a read transaction of its own:
    /// its queries see one snapshot (a directory's sources and their outputs agree), and
    /// every record committed before the call.
    private func reading<R>(_ body: () throws -> R) throws(StateError) -> R {
        readLock.lock()
        defer { readLock.unlock() }
        do {
            try reader.execute("BEGIN")
            defer { try? reader.execute("COMMIT") }
            return try body()
        } catch let error as StateError {
            noteDamage(error)
            throw error
        } catch {
            throw StateError(path: path, code: 0, message: "\(error)")
        }
    }

    /// Runs `body` holding the lock. Everything it calls throws `StateError` (closures
    /// are not yet inferred as typed-throwing, hence the cast).
    private func locked<R>(_ body: () throws -> R) throws(StateError) -> R {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body()
        } catch let error as StateError {
            noteDamage(error)
            throw error
        } catch {
            throw StateError(path: path, code: 0, message: "\(error)")
        }
    }

    /// Remembers that `error` says a page is damaged.
    private func noteDamage(_ error: StateError) {
        if [SQLITE_CORRUPT, SQLITE_NOTADB].contains(error.resultCode & 0xFF) { damageLock.withLock { sawDamage = true } }
    }

    private static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }

    /// Now, in nanoseconds since 1970.
    package static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time.nanoseconds
    }

}
