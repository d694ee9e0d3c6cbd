#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JDigest
import H2JOutputPlan
import H2JSupport

/// The run's one authority over output paths: who may publish which path, and the one
/// place that publishes. A file appears complete or not at all: temp file beside the
/// target, `fsync`, the source's times, bits and owner (`OutputAttributes`), the
/// collision check, `willPublish`, `rename`, directory `fsync`, `didPublish`.
///
/// Claims: the planner reserves each source's output in walk order (`reserve`), so
/// "the second one fails" is deterministic; a path first claimed at publish time (an
/// output known only after parsing) is first come, first served, and never waits.
/// Claims are kept per output directory and dropped when the walk has left that
/// directory for good (`releaseClaims`), so memory follows the largest directory, not
/// the number of files in the run; jobs still in flight hold their own reservations.
///
/// Invariants: once `removeAllAndSeal` has run, no temp file can be created and no
/// rename can publish one; once `stopPublishing` has run, no rename can publish one; with `rename(2)` being atomic, an interrupted run leaves
/// either complete outputs or nothing. Every temp file the publisher creates is either
/// renamed or removed before `write` returns, and every file `stage` returns is
/// published or discarded by its caller (or removed by `removeAllAndSeal`).
package final class OutputPublisher: @unchecked Sendable {
    private let hooks: PublishHooks
    private let lock = Lock()
    /// Output directory → file name → the latest claim on that path (each claim waits on
    /// the one before). Keyed by bytes: Swift's `String` equality is canonical
    /// equivalence, which would make `café` in NFC and in NFD (two different names on
    /// disk) one output.
    private var claims: [[UInt8]: [[UInt8]: OutputReservation]] = [:]
    private var openTemps: Set<String> = []
    private var sealed = false
    /// The state error after which nothing more is published (`stopPublishing`).
    private var unrecordable: (any Error)?
    private var counter = 0

    /// With `--state`: the handed-off original whose recorded output a path is, if any
    /// (`RunState.handedOffSource`). Such a file is the only copy of a photo that is gone,
    /// so it is never ours to skip or replace, whatever its mark says.
    private var handedOffSources: (@Sendable (String) -> String?)?

    package init(hooks: PublishHooks = PublishHooks()) {
        self.hooks = hooks
    }

    /// Protects the recorded outputs of handed-off originals (set once, before the walk).
    package func protectOutputs(ofHandedOff source: @escaping @Sendable (String) -> String?) {
        lock.withLock { handedOffSources = source }
    }

    /// The handed-off original whose output the file at `path` is, if any.
    func handedOffSource(ofOutput path: String) -> String? {
        lock.withLock { handedOffSources }?(Path.absolute(path))
    }

    /// Directories this run has planned or published into, by bytes: each is swept once
    /// for the temp files of killed runs (and forgotten with its claims).
    private var swept: Set<[UInt8]> = []
    /// How many such leftovers the sweeps removed.
    private var orphansRemoved = 0

    /// True for names the publisher creates (`TempFileName`), so walkers skip them.
    package static func isTempName(_ name: String) -> Bool {
        TempFileName.matches(name)
    }

    /// Leftover temp files of killed runs removed so far (the summary reports them).
    package var removedOrphans: Int { lock.withLock { orphansRemoved } }

    // MARK: - Claims

    /// Claims `path` for `owner` in walk order; `previous` is the claim before it on the
    /// same path, if any. The caller settles the reservation exactly once.
    package func reserve(_ path: String, for owner: String) -> OutputReservation {
        lock.withLock {
            let (directory, name) = Self.key(path)
            let reservation = OutputReservation(owner: owner, previous: claims[directory]?[name])
            claims[directory, default: [:]][name] = reservation
            return reservation
        }
    }

    /// Whether any claimant of this run has reserved or claimed `path`.
    package func isClaimed(_ path: String) -> Bool {
        let (directory, name) = Self.key(path)
        return lock.withLock { claims[directory]?[name] != nil }
    }

    /// Drops every claim: a watch does, whenever no job is under way, so that claims do
    /// not grow with the files a long watch sees. A later source with the same output name
    /// then meets that output on disk, as a later run would (`OutputOwnership`).
    package func releaseAllClaims() {
        lock.withLock { claims.removeAll() }
    }

    /// Forgets the claims and the sweep of `directory`: the walk has left it and will
    /// not come back (`BatchRunner` decides when that holds).
    package func releaseClaims(inDirectory directory: String) {
        // Spelled as the claims spell it (a trailing slash, for one, is not).
        let key = Self.key(Path.join(directory, "-")).directory
        lock.withLock {
            claims[key] = nil
            swept.remove(key)
        }
    }

    /// Claims held now, over every directory (tests check that they are released).
    var claimCount: Int { lock.withLock { claims.values.reduce(0) { $0 + $1.count } } }

    /// A path's directory and file name, as bytes (the one split every claim uses).
    private static func key(_ path: String) -> (directory: [UInt8], name: [UInt8]) {
        (Array(Path.parent(path).utf8), Array(Path.lastComponent(path).utf8))
    }

    /// A claim made when the output is published, for a path nobody reserved: refused,
    /// without waiting, while another claimant of this run may still produce the path or
    /// has produced it; otherwise taken (and settled once `write` has renamed or failed).
    private func claimAtPublish(_ path: String, for owner: String) throws(CollisionError) -> OutputReservation {
        try lock.withLock { () throws(CollisionError) -> OutputReservation in
            let (directory, name) = Self.key(path)
            if let existing = claims[directory]?[name], existing.settledOutcome != false {
                throw CollisionError(output: path, owner: existing.owner)
            }
            let reservation = OutputReservation(owner: owner, previous: nil)
            claims[directory, default: [:]][name] = reservation
            return reservation
        }
    }

    // MARK: - Publishing

    /// Writes `path` through `body` (given the temp file's descriptor) and publishes it
    /// for `source`: `stage`, then `publish`. On any error nothing is left.
    package func write(_ path: String, for source: String, reservation: OutputReservation?, replacing: Bool = false,
                       attributes: OutputAttributes?, _ body: (Int32) throws -> Void) throws -> WrittenOutput {
        let staged = try stage(path, attributes: attributes, body)
        return try publish(staged, for: source, reservation: reservation, replacing: replacing).written
    }

    /// Most `NAME-N.jpg` names `--on-conflict suffix` tries for one output.
    static let maxSuffix = 999

    /// The names `--on-conflict suffix` tries for `path`, in order: `NAME-1.jpg` to
    /// `NAME-999.jpg` (the suffix before the extension, as `OutputName` places it), so
    /// the planner, another image's output and a publish that meets a new file agree.
    /// Made lazily, as most take the first.
    static func suffixedPaths(of path: String) -> LazyMapSequence<ClosedRange<Int>, String> {
        (1...maxSuffix).lazy.map { OutputName(checking: "-\($0)")!.path(besides: path) }
    }

    /// Writes a complete temp file for `path` through `body` (given its descriptor),
    /// beside it: the directories made, the sweep of killed runs' temp files, then
    /// `body`, the digest read back from the page cache, `fsync`, the source's times,
    /// bits and owner. Nothing is published yet; the caller publishes or discards the
    /// file (the signal handler removes it meanwhile). On any error nothing is left.
    package func stage(_ path: String, attributes: OutputAttributes?, _ body: (Int32) throws -> Void) throws -> StagedFile {
        let directory = Path.parent(path)
        try Self.makeDirectories(directory, mirroring: attributes?.sourceDirectory)
        sweepOrphans(in: directory)
        let temp = try createTemp(besides: path)
        var closed = false
        defer { if !closed { close(temp.fd) } }
        do {
            try body(temp.fd)
            var info = stat()
            guard fstat(temp.fd, &info) == 0 else { throw WriteError.system(path, "fstat") }
            let sha256: String
            do {
                sha256 = try SourceDigest.hex(of: FileByteSource(fd: temp.fd, size: Int(info.st_size)))
            } catch {
                throw WriteError(path: path, reason: "cannot read it back for its digest: \(error)")
            }
            guard fsync(temp.fd) == 0 else { throw WriteError.system(path, "fsync") }
            try attributes?.apply(to: temp.fd, path: path)
            closed = true
            guard close(temp.fd) == 0 else { throw WriteError.system(path, "close") }
            return StagedFile(path: path, temp: temp.path, written: WrittenOutput(bytes: Int(info.st_size), sha256: sha256))
        } catch {
            discard(temp.path)
            throw error
        }
    }

    /// Publishes a staged file at its path for `source`, and returns the path it was
    /// published at. With a `reservation`, first waits for the claims before it and fails
    /// with `CollisionError` when one of them produced the path; without one, claims the
    /// path now. Unless `replacing` (the source's own earlier output is there and may be
    /// replaced), the rename never replaces a file: one that appeared since planning fails
    /// with `ForeignOutputError`, or with `suffixing` (`--on-conflict suffix`) moves this
    /// output to the first `NAME-N.jpg` that is free now (`publishSuffixed`). On any
    /// error the temp file is removed.
    package func publish(_ staged: StagedFile, for source: String, reservation: OutputReservation?,
                         replacing: Bool = false, suffixing: Bool = false) throws -> (path: String, written: WrittenOutput) {
        var path = staged.path
        do {
            if let previous = reservation?.previous, previous.waitPublished() {
                throw CollisionError(output: path, owner: previous.owner)
            }
            let claimedNow = reservation == nil ? try claimAtPublish(path, for: source) : nil
            do {
                try hooks.willPublish(path, source)
                try rename(staged.temp, as: path, replacing: replacing)
                claimedNow?.settle(published: true)
            } catch is ForeignOutputError where suffixing && !replacing {
                claimedNow?.settle(published: false)
                path = try publishSuffixed(staged, for: source)
            } catch {
                claimedNow?.settle(published: false)
                throw error
            }
            POSIX.syncDirectory(Path.parent(path))
            hooks.didPublish(path, source, staged.written.bytes)
            return (path, staged.written)
        } catch {
            discard(staged.temp)
            throw error
        }
    }

    /// Renames a staged file whose path a foreign file took since planning to the first
    /// of `suffixedPaths` that no claimant of this run holds and no file occupies, claimed
    /// at publish time like any path nobody reserved; a file appearing there too moves it
    /// on to the next. Returns the path, or throws when every name is taken.
    private func publishSuffixed(_ staged: StagedFile, for source: String) throws -> String {
        for candidate in Self.suffixedPaths(of: staged.path) where !isClaimed(candidate) {
            guard POSIX.fileInfo(candidate, followingLinks: false) == nil,
                  let claim = try? claimAtPublish(candidate, for: source) else { continue }
            do {
                try hooks.willPublish(candidate, source)
                try rename(staged.temp, as: candidate, replacing: false)
            } catch is ForeignOutputError {
                claim.settle(published: false)
                continue
            } catch {
                claim.settle(published: false)
                throw error
            }
            claim.settle(published: true)
            return candidate
        }
        throw ForeignOutputError(output: staged.path, suffixesTaken: true)
    }

    /// Removes a staged file that will not be published.
    package func discard(_ staged: StagedFile) {
        discard(staged.temp)
    }

    /// Refuses every rename from now on with `PublishStopped`: the run's state could not
    /// record a result (`error`), so no later output could be recorded either.
    package func stopPublishing(because error: any Error) {
        lock.withLock { unrecordable = unrecordable ?? error }
    }

    /// Removes every open temp file and refuses all further creates and renames.
    /// Called from the signal handler before the process exits.
    package func removeAllAndSeal() {
        lock.withLock {
            sealed = true
            for path in openTemps { _ = POSIX.removeFile(path) }
            openTemps.removeAll()
        }
    }

    /// Creates and opens (O_EXCL, mode 0644 less the umask; the source's bits come later)
    /// a temp file beside `target`.
    private func createTemp(besides target: String) throws -> (fd: Int32, path: String) {
        try lock.withLock { () throws -> (fd: Int32, path: String) in
            guard !sealed else { throw PublishInterrupted(path: target) }
            counter += 1
            let name = TempFileName.make(counter)
            let path = Path.join(Path.parent(target), name)
            // Read and write: the digest is read back from it before it is published.
            let fd = POSIX.openFile(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw WriteError.system(target) }
            openTemps.insert(path)
            return (fd, path)
        }
    }

    /// Renames `temp` to `target` unless the run has been interrupted or publishing
    /// stopped; only when `replacing` may a file already at `target` be replaced.
    private func rename(_ temp: String, as target: String, replacing: Bool) throws {
        try lock.withLock { () throws in
            guard !sealed else { throw PublishInterrupted(path: target) }
            if let unrecordable {
                throw PublishStopped(output: target, cause: "\(unrecordable)", code: ErrorCode(classifying: unrecordable))
            }
            if replacing {
                guard POSIX.renameReplacing(temp, target) == 0 else { throw WriteError.system(target) }
            } else {
                let code = POSIX.renameNoReplace(temp, target)
                if code == EEXIST { throw ForeignOutputError(output: target) }
                guard code == 0 else { throw WriteError(path: target, reason: POSIX.describe(code), errno: code) }
            }
            openTemps.remove(temp)
        }
    }

    /// The first time this run plans or publishes into `directory`, removes the temp
    /// files that killed runs of this machine left there (`TempFileName.isOrphan`: their
    /// process is gone), whether or not the run then writes there. Temp files of live
    /// runs, and of other machines, are left alone. Returns the listing it read (the
    /// state checks recorded outputs by it: `RunState.outputDirectoryListed`); nil when
    /// the directory was swept before, or cannot be listed.
    @discardableResult
    package func sweepOrphans(in directory: String) -> [POSIX.DirectoryEntry]? {
        guard lock.withLock({ swept.insert(Array(directory.utf8)).inserted }) else { return nil }
        let entries = try? POSIX.directoryEntries(directory)
        let removed = TempFileName.removeOrphans((entries ?? []).map(\.name), in: directory)
        lock.withLock { orphansRemoved += removed }
        return entries
    }

    /// Removes a temp file after a failure (already gone after a rename).
    private func discard(_ temp: String) {
        lock.withLock {
            guard openTemps.remove(temp) != nil else { return }
            _ = POSIX.removeFile(temp)
        }
    }

    /// `mkdir -p`. Each directory created gets the permission bits (and, as root, the
    /// owner) of `source`, the source directory it mirrors, whose parent the created
    /// directory's parent mirrors in turn; 0755 where there is none. The owner always
    /// keeps rwx, so the run can write into a directory mirroring a read-only one.
    static func makeDirectories(_ path: String, mirroring source: String?) throws(WriteError) {
        if let info = POSIX.fileInfo(path) {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: path, reason: "exists and is not a directory") }
            return
        }
        let parent = Path.parent(path)
        let sourceParent = source.map(Path.parent)
        if parent != path { try makeDirectories(parent, mirroring: sourceParent == source ? nil : sourceParent) }
        let model = source.flatMap { POSIX.fileInfo($0) }.flatMap { $0.st_mode & S_IFMT == S_IFDIR ? $0 : nil }
        let mode = model.map { $0.st_mode & 0o7777 | 0o700 } ?? 0o755
        guard POSIX.makeDirectory(path, mode) == 0 else {
            guard errno == EEXIST else { throw WriteError.system(path, "cannot create directory") }
            return
        }
        // mkdir's mode is reduced by the umask; the source's bits are what is wanted.
        if let model { _ = POSIX.setMode(path, mode, owner: OutputAttributes.copiesOwner ? (model.st_uid, model.st_gid) : nil) }
    }
}

/// A complete output in its temp file, not yet at its path (`OutputPublisher.stage`).
package struct StagedFile: Sendable {
    /// Where it is to be published.
    package let path: String
    /// The temp file beside it.
    let temp: String
    /// Its size and SHA-256.
    package let written: WrittenOutput

    /// The same file, to be published at `path` instead, in the same directory (where
    /// its temp file is).
    func retargeted(to path: String) -> StagedFile {
        StagedFile(path: path, temp: temp, written: written)
    }
}
