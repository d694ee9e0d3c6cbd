#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JDigest
import H2JMetadata
import H2JState
import H2JSupport

/// `--state`: what one run asks the state database and tells it. A source is up to date
/// (and not even opened) when its size, mtime and inode are those recorded, its
/// recorded outputs exist as recorded, and the options that shape the output are the
/// same; a recorded source that changed is converted again and reported `updated`.
/// A dry run's state is read, never written: it says what a run would find, and records
/// neither the run, nor a result, nor a missing source.
package final class RunState: @unchecked Sendable {
    package let database: StateDatabase
    /// The run's ID in the state; 0 for a dry run, which records no run.
    package let run: Int
    /// Not a dry run: results, missing sources and the run itself are recorded.
    private let writes: Bool
    private let options: String
    /// `--overwrite`: nothing is up to date; every source is converted again.
    private let overwrite: Bool
    /// `--recheck`: a source is up to date only if it and its outputs still hash to what
    /// the state recorded.
    private let recheck: Bool
    /// Outputs keep all the metadata (keep mode, GPS kept): without it no output carries
    /// all of its source.
    private let carriesMetadata: Bool
    /// `--delete-source`/`--move-source`: a source recorded only as skipped (its output
    /// was there, never looked into) is converted again, so it can be verified.
    private let refreshesUnverified: Bool
    private let lock = Lock()
    /// Input roots as given → absolute (the state records absolute roots).
    private var absoluteRoots: [String: String] = [:]
    private var lastRoot: (given: String, absolute: String)?
    /// The records of the directories the walk is in, by name, each read in one query
    /// when the walk first asks about it; a name is removed when the walk meets it, so
    /// what is left when the walk leaves the directory was not met. One entry per level
    /// of the walk's depth (a file list's directories are dropped past `cachedDirectories`),
    /// the latest last: found by comparing keys from the end, not by hashing them per file.
    private var directories: [(key: DirectoryKey, records: [String: SourceRecord])] = []
    static let cachedDirectories = 64
    /// The output directories met, each listed once (name → inode number, `readdir`'s
    /// `d_ino`, nil when it cannot be listed): a recorded output listed under its name
    /// with its recorded inode needs no `stat` of its own. Dropped past `cachedDirectories`.
    private var outputListings: [String: [String: UInt64]?] = [:]
    /// The output directory last looked up, and its listing: a directory's outputs are
    /// asked about one after another, so most lookups compare its bytes, unhashed.
    private var lastListing: (directory: String, listing: [String: UInt64]?)?

    private struct DirectoryKey: Hashable {
        let root: String
        let directory: String
    }

    package init(path: String, options: ConversionOptions, naming: OutputNaming = .template(.standard), recheck: Bool = false,
                 handingOff: Bool = false, shard: Shard? = nil) throws(StateError) {
        self.recheck = recheck
        refreshesUnverified = handingOff
        writes = !options.dryRun
        database = try StateDatabase(path: path, fullCheck: recheck, readOnly: options.dryRun)
        self.options = options.fingerprint + naming.fingerprint
        overwrite = options.overwrite
        carriesMetadata = options.metadata == .keep && !options.stripGPS
        run = options.dryRun ? 0 : try database.beginRun(pid: getpid(), host: PathBytes.string(POSIX.hostNameBytes()), version: Version.current,
                                    options: self.options, shard: shard.map { ($0.index, $0.count) })
    }

    /// What the state says of a candidate the walk found.
    enum Verdict {
        /// Nothing changed: the result to report, without opening the file, and the record.
        case upToDate(ConversionResult, SourceRecord)
        /// Converted before, and changed since (or its outputs did, or the options):
        /// convert again, replacing its own outputs.
        case changed(SourceRecord)
        /// Not converted before (or it failed): plan as usual.
        case new
        /// An own output no longer holds what was published (`output-modified`): the user
        /// edited it. Skipped, with the warning, whether or not the source changed; only
        /// `--overwrite` replaces it. The record stays as it was, so every run says so.
        case outputModified(ConversionResult)
    }

    /// How a recorded output stands.
    private enum OutputCondition {
        /// Its size and inode are as recorded (and with `--recheck`, its SHA-256).
        case asRecorded
        /// Gone, replaced by a file of the same content, or unreadable: convert again.
        case changed
        /// At its path, but hashing to another SHA-256 than the one recorded at publishing.
        case modified
    }

    func verdict(for candidate: Candidate) throws(StateError) -> Verdict {
        let (directory, name) = SourceRecord.split(candidate.relativePath)
        let key = DirectoryKey(root: absolute(candidate.root), directory: directory)
        guard let record = try candidate.walked ? lock.withLock({ () throws(StateError) in
                  let index = try loadedRecords(key)
                  return directories[index].records.removeValue(forKey: name)
              }) : database.source(root: key.root, path: candidate.relativePath),
              SourceRecord.isDone(record.status) || record.status == SourceRecord.sourceChanged,
              !record.outputs.isEmpty else { return .new }
        // One pass, no array of conditions: the no-op rerun asks this of every source.
        var modified: [String] = [], outputsAsRecorded = true
        for output in record.outputs {
            switch condition(of: output) {
            case .asRecorded: continue
            case .changed: outputsAsRecorded = false
            case .modified: outputsAsRecorded = false; modified.append(output.path)
            }
        }
        if !overwrite, !modified.isEmpty { return .outputModified(Self.modifiedResult(candidate, record, modified)) }
        // The hand-off found it changed behind what the walk compares (an in-place write
        // with its mtime put back): convert it again, whatever its identity says.
        if record.status == SourceRecord.sourceChanged { return .changed(record) }
        let unchanged = candidate.info.map(Self.identity) == record.identity && record.options == options
            && outputsAsRecorded
        guard unchanged, !recheck || Self.hashesAsRecorded(candidate.path, record) else { return .changed(record) }
        if refreshesUnverified && carriesMetadata && !record.complete && record.status == ConversionResult.Status.skipped.rawValue {
            return .changed(record)
        }
        // A record of an older heic2jpg has no ctime to prove the source unchanged by.
        if refreshesUnverified && record.complete && record.ctimeNanoseconds == nil { return .changed(record) }
        guard !overwrite else { return .new }
        var result = ConversionResult(source: candidate.path, output: record.outputs[0].path, status: .skipped,
                                      reason: "up to date (--state)")
        result.sourceSHA256 = record.sha256
        result.width = record.width
        result.height = record.height
        return .upToDate(result, record)
    }

    /// Records how a candidate ended (a result from the planner or a worker); returns the
    /// record as written, or as it would be in a dry run (nil for a candidate the walk
    /// gave no identity).
    @discardableResult
    func record(_ candidate: Candidate, _ result: ConversionResult, started: Int) throws(StateError) -> SourceRecord? {
        guard let info = candidate.info else { return nil }
        let outputs: [OutputRecord]
        if ![.converted, .updated, .copied, .skipped].contains(result.status) {
            outputs = []
        } else if result.outputs.isEmpty {
            // A skipped source: its output as found.
            outputs = result.output.flatMap { Self.outputRecord($0, sha256: result.outputSHA256, kind: "primary") }.map { [$0] } ?? []
        } else {
            outputs = result.outputs.compactMap { Self.outputRecord($0.path, sha256: $0.sha256, kind: $0.kind) }
        }
        // What the conversion's open file showed, when there was one; else the walk's `stat`.
        let seen = result.sourceIdentity ?? SourceIdentity(info)
        var record = SourceRecord(root: absolute(candidate.root), path: candidate.relativePath,
                                  identity: FileIdentity(size: seen.size, mtimeNanoseconds: seen.mtimeNanoseconds, inode: seen.inode,
                                                         device: seen.device),
                                  sha256: result.sourceSHA256, status: result.status.rawValue,
                                  errorCode: result.errorCode?.rawValue, reason: result.reason, toolVersion: Version.current,
                                  options: options, startedNanoseconds: started, finishedNanoseconds: StateDatabase.now(),
                                  outputs: outputs)
        // Only a conversion of this run has looked inside the source (a planner's skip has not).
        record.complete = [.converted, .updated, .copied].contains(result.status) && !outputs.isEmpty
            && result.warnings.allSatisfy { Warning.Code.nothingLeftOut.contains($0.code) }
            && result.notCarried.isEmpty && carriesMetadata
        record.width = result.width
        record.height = result.height
        record.ctimeNanoseconds = seen.ctimeNanoseconds
        if writes { try database.record(record, run: run) }
        return record
    }

    /// The walk has listed `directory` (relative to the input `root`) to its end: the
    /// recorded sources there it did not meet and that are gone are now `missing-source`.
    func leave(root: String, directory: String) throws(StateError) -> [ConversionResult] {
        let key = DirectoryKey(root: absolute(root), directory: directory)
        let unmet = try lock.withLock { () throws(StateError) in
            let index = try loadedRecords(key)
            return directories.remove(at: index).records
        }
        return try markMissing(unmet.values.sorted { $0.path < $1.path }, under: root)
    }

    /// The handed-off source whose recorded output `output` (absolute) is, if any; nil also
    /// when the state cannot say (its error is then the run's at its next write).
    func handedOffSource(ofOutput output: String) -> String? {
        try? database.handedOffSource(ofOutput: output)
    }

    /// How many sources the state records under the input `root` (not `missing-source`).
    func recordedSources(under root: String) throws(StateError) -> Int {
        try database.sourceCount(root: absolute(root))
    }

    /// The recorded sources in directories under the directory input `root` that the
    /// walk never entered (they vanished, or could not be listed) and that are gone, each
    /// now `missing-source`.
    func missingSources(under root: String) throws(StateError) -> [ConversionResult] {
        var results: [ConversionResult] = []
        let absoluteRoot = absolute(root)
        for directory in try database.unseenDirectories(root: absoluteRoot) {
            results += try markMissing(database.sources(root: absoluteRoot, directory: directory), under: root)
        }
        return results
    }

    /// Marks each of `records` whose source is gone (ENOENT: an unreadable directory is
    /// not a deletion) `missing-source`, its outputs kept; `root` is the input as given.
    /// A source handed off is gone as recorded, not missing.
    private func markMissing(_ records: [SourceRecord], under root: String) throws(StateError) -> [ConversionResult] {
        var results: [ConversionResult] = []
        for record in records where record.status != "missing-source" && record.handedOff == nil {
            let source = Path.join(root, record.path)
            guard POSIX.fileInfo(source, followingLinks: false) == nil, errno == ENOENT else { continue }
            if writes { try database.markMissing(root: record.root, path: record.path, run: run) }
            results.append(ConversionResult(source: source, output: record.outputs.first?.path, status: .missingSource,
                                            reason: "the source is gone; its outputs are kept"))
        }
        return results
    }

    /// Reads the directory's records unless they are loaded (holding `lock`), and notes
    /// that the run entered it: the walk leaves every directory it enters (when it does
    /// not finish, nothing is marked missing at all), so an entered directory's missing
    /// sources are found by `leave`, and `missingSources` need not look at it again.
    /// Returns its index in `directories`.
    private func loadedRecords(_ key: DirectoryKey) throws(StateError) -> Int {
        if let index = directories.lastIndex(where: { $0.key == key }) { return index }
        if directories.count >= Self.cachedDirectories { directories.removeAll() }
        directories.append((key, try database.sourcesByName(root: key.root, directory: key.directory, options: options)))
        return directories.count - 1
    }

    /// Closes the run's record with its counts and exit status (a dry run has none), then
    /// the database: the run is over, and nothing asks the state after it.
    func finish(_ summary: RunSummary) throws(StateError) {
        defer { database.closeConnections() }
        guard writes else { return }
        var counts = StateDatabase.RunCounts()
        counts.converted = summary.converted
        counts.updated = summary.updated
        counts.copied = summary.copied
        counts.skipped = summary.skipped
        counts.failed = summary.failed
        counts.missing = summary.missingSources
        try database.finishRun(run, counts: counts, exitCode: summary.exitStatus)
    }

    func absolute(_ root: String) -> String {
        lock.withLock {
            // Every candidate of a walk shares its root's string: compared in place, not hashed.
            if let last = lastRoot, last.given == root { return last.absolute }
            if let known = absoluteRoots[root] {
                lastRoot = (root, known)
                return known
            }
            let resolved = POSIX.realPath(root) ?? Path.absolute(root)
            absoluteRoots[root] = resolved
            lastRoot = (root, resolved)
            return resolved
        }
    }

    static func identity(_ info: stat) -> FileIdentity {
        FileIdentity(size: Int(info.st_size), mtimeNanoseconds: info.st_mtim.nanoseconds, inode: Int(info.st_ino),
                     device: Int(info.st_dev))
    }


    /// `--recheck`: the source's SHA-256, where recorded, is still the one recorded (a file
    /// changed behind an unchanged size and mtime). Its outputs were hashed by `condition`.
    private static func hashesAsRecorded(_ source: String, _ record: SourceRecord) -> Bool {
        guard let recorded = record.sha256 else { return true }
        return (try? SourceDigest.hex(ofFileAt: source)) == recorded
    }

    /// A recorded output is as recorded when its directory lists its name with its
    /// recorded inode (a name removed, renamed or replaced by another file changes that),
    /// or else when a file of its recorded size and inode is at its path. Only one that is
    /// neither (or, with `--recheck`, every one) is hashed: a file there whose SHA-256 is
    /// not the one recorded at publishing was modified (an editor writes a new file). A
    /// file written over in place keeps its inode, so is not hashed without `--recheck`.
    private func condition(of output: OutputRecord) -> OutputCondition {
        if !recheck, listedInode(output.path) == UInt64(truncatingIfNeeded: output.inode) { return .asRecorded }
        guard let info = POSIX.fileInfo(output.path) else { return .changed }
        let same = Int(info.st_size) == output.size && Int(info.st_ino) == output.inode
        guard !same || recheck else { return .asRecorded }
        guard let recorded = output.sha256, info.st_mode & S_IFMT == S_IFREG else { return same ? .asRecorded : .changed }
        guard let digest = try? SourceDigest.hex(ofFileAt: output.path) else { return .changed }
        if digest != recorded { return .modified }
        return same ? .asRecorded : .changed
    }

    /// `directory` (as the walk names it) was just listed, as `entries`: the outputs
    /// recorded there are checked against that listing rather than another.
    func outputDirectoryListed(_ directory: String, _ entries: [POSIX.DirectoryEntry]) {
        let listing = Self.inodes(entries)
        let absolute = Path.absolute(Path.parent(Path.join(directory, "-")))
        lock.withLock {
            if outputListings.count >= Self.cachedDirectories { outputListings.removeAll() }
            outputListings[absolute] = listing
            lastListing = nil
        }
    }

    /// The inode number its directory's listing gives the file at `path` (absolute); nil
    /// when the name is not listed, or the directory cannot be.
    private func listedInode(_ path: String) -> UInt64? {
        let listing = lock.withLock { () -> [String: UInt64]? in
            if let last = lastListing, Path.isEntry(path, of: last.directory) { return last.listing }
            let directory = Path.parent(path)
            let listed: [String: UInt64]?
            if let known = outputListings[directory] {
                listed = known
            } else {
                if outputListings.count >= Self.cachedDirectories { outputListings.removeAll() }
                listed = (try? POSIX.directoryEntries(directory)).map(Self.inodes)
                outputListings[directory] = listed
            }
            lastListing = (directory, listed)
            return listed
        }
        return listing?[Path.lastComponent(path)]
    }

    /// A listing's inode numbers by name.
    private static func inodes(_ entries: [POSIX.DirectoryEntry]) -> [String: UInt64] {
        var inodes = [String: UInt64](minimumCapacity: entries.count)
        for entry in entries where inodes[entry.name] == nil { inodes[entry.name] = entry.inode }
        return inodes
    }

    /// The skip of a source whose outputs at `paths` were modified since publishing.
    private static func modifiedResult(_ candidate: Candidate, _ record: SourceRecord, _ paths: [String]) -> ConversionResult {
        var result = ConversionResult(source: candidate.path, output: record.outputs[0].path, status: .skipped,
                                      reason: "an output was modified since heic2jpg wrote it; kept (--overwrite replaces it)")
        result.sourceSHA256 = record.sha256
        result.warnings = paths.map {
            Warning(.outputModified, "\($0) was modified since heic2jpg wrote it (its SHA-256 is not the one recorded); it is kept, and the source is not converted again (--overwrite replaces it)")
        }
        return result
    }

    /// An output as it is now on disk (absolute path, size, inode, mtime), with the
    /// digest it was published with, when it was.
    private static func outputRecord(_ path: String, sha256: String?, kind: String) -> OutputRecord? {
        let absolute = Path.absolute(path)
        guard let info = POSIX.fileInfo(absolute) else { return nil }
        return OutputRecord(path: absolute, size: Int(info.st_size), sha256: sha256, kind: kind, inode: Int(info.st_ino),
                            mtimeNanoseconds: info.st_mtim.nanoseconds)
    }
}

extension Warning.Code {
    /// `--state`: an own output no longer holds what was published (the user edited it):
    /// kept, its source skipped; `--overwrite` replaces it.
    static let outputModified = Warning.Code("output-modified")
}
