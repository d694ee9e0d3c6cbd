import CSQLite
import H2JSupport

/// What `heic2jpg status` tells of one or more state files (the shards of one
/// migration, merged): sources by status, the failures, bytes, hand-offs and the sources
/// a hand-off kept, the last runs.
package struct StateReport: Sendable, Equatable {
    package struct Failure: Sendable, Equatable {
        package let state: String
        package let source: String
        package let code: String
        package let reason: String
    }

    /// A source the last hand-off kept, and why (`source-changed: …` when it was not the
    /// file converted).
    package struct Kept: Sendable, Equatable {
        package let state: String
        package let source: String
        package let reason: String
    }

    package struct HandOff: Sendable, Equatable {
        package let state: String
        package let source: String
        package let action: String
        package let destination: String?
        package let atNanoseconds: Int
    }

    package struct Run: Sendable, Equatable {
        package let state: String
        package let id: Int
        package let startedNanoseconds: Int
        package let finishedNanoseconds: Int?
        package let host: String
        package let pid: Int
        package let converted: Int, updated: Int, skipped: Int, failed: Int
        package let exitCode: Int?
    }

    /// The shard (`--shard K/N`) a state's latest sharded run took.
    package struct ShardTaken: Sendable, Equatable {
        package let state: String
        package let index: Int
        package let count: Int
    }

    /// Sources by status (`converted`, `updated`, `failed`, …).
    package var counts: [String: Int] = [:]
    package var failures: [Failure] = []
    package var sourceBytes = 0
    package var outputBytes = 0
    package var outputs = 0
    package var handOffs: [HandOff] = []
    package var kept: [Kept] = []
    /// The latest runs of each state, newest first.
    package var runs: [Run] = []
    /// The shard of each state written with `--shard`.
    package var shards: [ShardTaken] = []
    /// Each state whose latest run did not end with 0 or 1: unfinished (still running, or
    /// killed) or stopped early (75, a signal). Its shard may hold sources it never met.
    package var stoppedRuns: [Run] = []

    /// How many runs of each state are listed.
    package static let runsPerState = 5

    package init() {}

    /// The report of the state files at `paths`, merged. Each is opened read-only: a
    /// missing, damaged or newer file is an error naming it.
    package init(paths: [String]) throws(StateError) {
        for path in paths { try add(path) }
        runs.sort { $0.startedNanoseconds > $1.startedNanoseconds }
    }

    /// Whether any failure is recorded (status exits 1).
    package var hasFailures: Bool { !failures.isEmpty }

    /// The shard counts N the sharded states were written with (one, for the shards of
    /// one migration).
    package var shardCounts: [Int] { Set(shards.map(\.count)).sorted() }

    /// With one shard count N: the shards of 0..<N that none of the states took, whose
    /// sources no run has met.
    package var missingShards: [Int] {
        guard shardCounts.count == 1, let count = shardCounts.first else { return [] }
        let taken = Set(shards.map(\.index))
        return (0..<count).filter { !taken.contains($0) }
    }

    /// Whether every run the states tell of ended, and every shard has a state: only then
    /// may sources that were never met not remain (status exits 1 otherwise).
    package var isComplete: Bool { shardCounts.count <= 1 && missingShards.isEmpty && stoppedRuns.isEmpty }

    private mutating func add(_ path: String) throws(StateError) {
        guard POSIX.fileInfo(path) != nil else { throw StateError(path: path, code: 0, message: "does not exist") }
        let connection = try SQLiteConnection(path: path, create: false, readOnly: true)
        let version = try connection.rows("PRAGMA user_version").first?.first?.integer ?? 0
        guard (1...StateSchema.currentVersion).contains(version) else {
            throw StateError(path: path, code: 0, message: "is not a heic2jpg state of a version this heic2jpg reads (schema \(version))")
        }
        let check = try connection.rows("PRAGMA quick_check").first?.first?.text ?? ""
        guard check == "ok" else { throw StateError(path: path, code: 0, message: "integrity check: \(check)") }
        for row in try connection.rows("SELECT status, count(*), coalesce(sum(size), 0) FROM sources GROUP BY status") {
            guard row.count == 3, let status = row[0].text else { continue }
            counts[status, default: 0] += row[1].integer ?? 0
            sourceBytes += row[2].integer ?? 0
        }
        for row in try connection.rows("SELECT count(*), coalesce(sum(size), 0) FROM outputs") where row.count == 2 {
            outputs += row[0].integer ?? 0
            outputBytes += row[1].integer ?? 0
        }
        for row in try connection.rows("SELECT root, path, error_code, reason FROM sources WHERE status = 'failed' ORDER BY root, path") {
            guard row.count == 4, let root = row[0].blob, let source = row[1].blob else { continue }
            failures.append(Failure(state: path, source: Path.join(PathBytes.string(root), PathBytes.string(source)),
                                    code: row[2].text ?? "", reason: row[3].text ?? ""))
        }
        for row in try connection.rows("SELECT root, source, action, destination, at_ns FROM handoffs ORDER BY at_ns") {
            guard row.count == 5, let root = row[0].blob, let source = row[1].blob else { continue }
            handOffs.append(HandOff(state: path, source: Path.join(PathBytes.string(root), PathBytes.string(source)),
                                    action: row[2].text ?? "", destination: row[3].blob.map(PathBytes.string),
                                    atNanoseconds: row[4].integer ?? 0))
        }
        // Schema 5 records why a hand-off kept a source.
        for row in try version < 5 ? [] : connection.rows("SELECT root, path, kept FROM sources WHERE kept IS NOT NULL ORDER BY root, path") {
            guard row.count == 3, let root = row[0].blob, let source = row[1].blob else { continue }
            kept.append(Kept(state: path, source: Path.join(PathBytes.string(root), PathBytes.string(source)), reason: row[2].text ?? ""))
        }
        var latest: Run?
        for row in try connection.rows("""
            SELECT id, started_ns, finished_ns, host, pid, converted, updated, skipped, failed, exit_code
            FROM runs ORDER BY id DESC LIMIT \(Self.runsPerState)
            """) where row.count == 10 {
            let run = Run(state: path, id: row[0].integer ?? 0, startedNanoseconds: row[1].integer ?? 0,
                          finishedNanoseconds: row[2].integer, host: row[3].text ?? "", pid: row[4].integer ?? 0,
                          converted: row[5].integer ?? 0, updated: row[6].integer ?? 0, skipped: row[7].integer ?? 0,
                          failed: row[8].integer ?? 0, exitCode: row[9].integer)
            if latest == nil { latest = run }
            runs.append(run)
        }
        if let latest, ![0, 1].contains(latest.exitCode) { stoppedRuns.append(latest) }
        // Schema 4 records each run's shard.
        guard version >= 4 else { return }
        for row in try connection.rows("""
            SELECT shard_index, shard_count FROM runs WHERE shard_count IS NOT NULL ORDER BY id DESC LIMIT 1
            """) where row.count == 2 {
            guard let index = row[0].integer, let count = row[1].integer else { continue }
            shards.append(ShardTaken(state: path, index: index, count: count))
        }
    }
}
