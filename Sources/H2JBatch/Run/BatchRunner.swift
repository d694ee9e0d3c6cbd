#if canImport(Glibc)
import Glibc
#endif
import H2JConvert
import H2JState
import H2JSupport

/// Everything one `convert` run needs, as parsed from the command line.
package struct BatchRequest: Sendable, Equatable {
    /// Files, directories, or `-` for stdin.
    package var inputs: [String] = []
    /// The output root; nil = next to each source (or `-o FILE.jpg`: `naming`); `.standardStream` = stdout.
    package var output: Endpoint?
    /// `--name TEMPLATE`, or `-o FILE.jpg` (and `IN OUT.jpg`): how the primary output is named.
    package var naming = OutputNaming.template(.standard)
    /// `--jobs`; by default the CPUs this process is given (`ResourceShare`).
    package var jobs = BatchRequest.cpuCount
    /// Whether `--jobs` set `jobs`, for `-v`'s account of where it came from.
    package var jobsGiven = false
    package var options = ConversionOptions()
    /// JSON Lines report: a path, or `.standardStream` for stdout.
    package var report: Endpoint?
    package var verbosity = Reporter.Verbosity.normal
    /// `--max-memory` in bytes; nil = derived from the pixel limit (`WorkerLimits.defaultMemory`).
    package var maxMemory: Int?
    /// `--timeout` in seconds; 0 = none.
    package var timeoutSeconds = WorkerLimits.defaultTimeoutSeconds
    /// `--state FILE`: the run state database.
    package var state: String?
    /// `--wait[=SECONDS]`: how long to wait for another run's lock; nil = not at all.
    package var waitSeconds: Double?
    /// `--files-from FILE|-`: the sources, listed, instead of inputs.
    package var filesFrom: Endpoint?
    /// `-0`/`--null`: the list is NUL-separated rather than newline-separated.
    package var listSeparator = UInt8(ascii: "\n")
    /// `--base DIR`: the directory listed paths are relative to.
    package var base = "."
    /// `--shard K/N`: only this shard's files.
    package var shard: Shard?
    /// `--delete-source` / `--move-source DIR`: hand verified originals off (needs `--state`).
    package var handOff: HandOffAction?
    /// `--recheck`: check every page of the state (`integrity_check`), and re-hash sources and
    /// outputs before calling them up to date (needs `--state`).
    package var recheck = false
    /// `--decoder`: the tile decoder; `CommandLineTool` resolves `auto` before the run.
    package var decoder = TileDecoderChoice.defaultChoice
    /// Why `decoder` was taken, when `auto` chose it (`TileDecoderChoice.autoReason`): the
    /// report's summary carries it.
    package var decoderReason: String?

    /// What sends bytes to stdout, as the user wrote it: `-o -` or `--report -`; nil
    /// when nothing does.
    package var standardOutputUse: String? {
        if output == .standardStream { return "-o -" }
        return report == .standardStream ? "--report -" : nil
    }

    /// The state file, `{shard}` replaced.
    var stateFile: String? { state.map { shard?.stateFile($0) ?? $0 } }

    package init() {}

    /// The CPUs this process is given: its affinity mask and cgroup quota (`ResourceShare`).
    package static var cpuCount: Int { ResourceShare.current.cpus }

    /// `--max-memory`, or by default the pixel limit's (`WorkerLimits.defaultMemory`)
    /// lowered so that the files converted at once fit the cgroup's memory limit together,
    /// but never below what a worker needs to start (`WorkerLimits.minimumMemoryBytes`).
    func workerMemory(share: ResourceShare) -> Int {
        if let maxMemory { return maxMemory }
        let memory = WorkerLimits.defaultMemory(maxPixels: options.maxPixels)
        guard let limit = share.memoryLimit else { return memory }
        return max(WorkerLimits.minimumMemoryBytes, min(memory, limit / concurrentFiles))
    }

    /// What `-v` says of the run's share of the machine: the files converted at once and
    /// each worker's memory, with where each number came from.
    func shareNotes(_ share: ResourceShare) -> [String] {
        let jobsFrom = jobsGiven ? "--jobs" : concurrentFiles < jobs ? "one file" : "\(share.cpus) CPU\(share.cpus == 1 ? "" : "s"): \(share.cpuSource)"
        let memory = workerMemory(share: share)
        let memoryFrom: String
        if maxMemory != nil {
            memoryFrom = "--max-memory"
        } else if let limit = share.memoryLimit, let source = share.memorySource, memory == limit / concurrentFiles {
            memoryFrom = "\(source) (\(WorkerDeath.mebibytes(limit))) over \(concurrentFiles) worker\(concurrentFiles == 1 ? "" : "s")"
        } else {
            memoryFrom = "the pixel limit's default"
        }
        return ["jobs: \(concurrentFiles) (\(jobsFrom))", "memory per worker: \(WorkerDeath.mebibytes(memory)) (\(memoryFrom))"]
    }

    /// Files converted at once: `jobs`, or 1 for a single file (which then gets every
    /// core as decoding threads).
    var concurrentFiles: Int {
        let singleImage = inputs.count == 1 && (inputs[0] == "-" || !Path.isDirectory(inputs[0]))
        return singleImage ? 1 : max(1, jobs)
    }

    /// Each worker process's memory and time limits.
    var workerLimits: WorkerLimits {
        WorkerLimits(memoryBytes: workerMemory(share: .current),
                     timeoutSeconds: timeoutSeconds, outputBytes: WorkerLimits.maxOutputBytes(maxPixels: options.maxPixels),
                     decoder: decoder)
    }
}

/// Runs a batch: walk → plan → worker pool → (worker processes) → publish → reporter.
///
/// Nothing thrown crosses the pool: every input ends as a `ConversionResult`.
package enum BatchRunner {
    /// The worker processes for `request`, started before anything else so that they
    /// load while the run walks and plans (none for a dry run, which decodes nothing).
    package static func startWorkers(for request: BatchRequest, publisher: OutputPublisher) -> WorkerSupervisor {
        WorkerSupervisor(prestart: request.options.dryRun ? 0 : request.concurrentFiles, limits: request.workerLimits,
                         destination: PublishedOutput(publisher: publisher))
    }

    /// Converts everything `request` names and returns the summary (already printed).
    /// Every path output goes through `publisher`, and every job through `workers`,
    /// which the caller owns (the signal handler seals the one and kills the other).
    /// With another run holding the lock, nothing is done and the summary is empty.
    package static func run(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor,
                            interruption: RunInterruption = RunInterruption()) -> RunSummary {
        var locks: [RunLock] = []
        do {
            if let state = request.stateFile, !request.options.dryRun {
                do {
                    // Created like an output root, so a recipe on a fresh volume needs no mkdir.
                    try OutputPublisher.makeDirectories(Path.parent(state), mirroring: nil)
                    locks.append(try RunLock(path: state + ".lock", wait: request.waitSeconds))
                } catch where !(error is RunLock.Busy) {
                    // Without a lock a state could be shared by two runs: that fails the run.
                    var summary = RunSummary()
                    summary.stateError = "--state \(state): cannot take the run lock \(state).lock: \(error)"
                    // A full or read-only disk under the state: 75, for a rerun once there is room;
                    // anything else (a file in the way, no permission): 73.
                    if ErrorCode(classifying: error).isExhaustion { summary.stoppedBy = summary.stateError }
                    else { summary.cannotStart = summary.stateError }
                    POSIX.writeLine("error: \(summary.stateError ?? "")", to: STDERR_FILENO)
                    return summary
                }
            }
            for root in outputRoots(request) {
                do {
                    locks.append(try RunLock(path: root, wait: request.waitSeconds, shared: request.shard != nil))
                } catch let error as SystemError {
                    // A directory that cannot be locked (NFS takes no exclusive flock on a directory) does
                    // not stop the run; said unless --quiet, so that such a cron job stays silent.
                    if request.verbosity != .quiet {
                        POSIX.writeLine("warning: cannot lock the output directory \(root): \(error); going on without that lock", to: STDERR_FILENO)
                    }
                }
            }
        } catch {
            // `RunLock.Busy`, the one error left: not a failure, cron's next run will do the
            // work. Said unless --quiet.
            if request.verbosity != .quiet { POSIX.writeLine("heic2jpg: \(error); nothing done", to: STDERR_FILENO) }
            return RunSummary()
        }
        return run(request, publisher: publisher, workers: workers, interruption: interruption, locks: locks)
    }

    /// The run itself, holding `locks` until it returns.
    private static func run(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor,
                            interruption: RunInterruption, locks: [RunLock]) -> RunSummary {
        defer { withExtendedLifetime(locks) {} }
        var reportFD: Int32?
        var reportErrno: Int32?
        switch request.report {
        case .path(let path):
            let fd = POSIX.openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd >= 0 { reportFD = fd } else { reportErrno = errno }
        case .standardStream:
            reportFD = STDOUT_FILENO
        case nil:
            break
        }
        defer { if let reportFD, reportFD != STDOUT_FILENO { close(reportFD) } }
        let reporter = Reporter(verbosity: request.verbosity, report: reportFD, reportName: request.report?.display ?? "-",
                                tileDecoder: try? request.decoder.resolved(), decoderReason: request.decoderReason)
        interruption.attach(reporter)
        if request.verbosity == .verbose { request.shareNotes(.current).forEach(reporter.note) }
        // A report that cannot be written is refused before any work: a run whose record
        // would be lost converts nothing.
        if let reportErrno, case .path(let path) = request.report {
            let reason = "cannot open report \(path): \(POSIX.describe(reportErrno))"
            reporter.record(.failed(source: "--report", output: nil, .reportUnwritable, reason + "; nothing done"))
            reporter.noteCannotStart(reason, exhaustion: ErrorCode(errno: reportErrno, otherwise: .reportUnwritable).isExhaustion)
            return reporter.finish()
        }
        let state: RunState?
        do {
            // A dry run reads the state, and plans as a first run where there is none yet: it creates nothing.
            let stateFile = request.stateFile.flatMap { !request.options.dryRun || POSIX.fileInfo($0) != nil ? $0 : nil }
            state = try stateFile.map { path throws(StateError) in
                try RunState(path: path, options: request.options, naming: request.naming, recheck: request.recheck, handingOff: request.handOff != nil,
                             shard: request.shard)
            }
            if let damage = state?.database.damage { POSIX.writeLine("warning: --state \(damage)", to: STDERR_FILENO) }
            if request.handOff != nil { try state?.database.makeCommitsDurable() }
        } catch {
            reporter.record(.failed(source: "--state", output: nil, ErrorCode(classifying: error), error.description))
            reporter.noteCannotStart(error.description, exhaustion: ErrorCode(classifying: error).isExhaustion)
            return reporter.finish()
        }

        if let state { publisher.protectOutputs(ofHandedOff: state.handedOffSource) }
        /// Every way out past this point: the run's record gets its counts, and the state is closed.
        func ended(_ summary: RunSummary) -> RunSummary {
            do { try state?.finish(summary) } catch { POSIX.writeLine("error: \(error)", to: STDERR_FILENO) }
            return summary
        }
        var options = request.options
        let jobs = request.concurrentFiles
        options.decodingThreads = max(1, BatchRequest.cpuCount / jobs)
        let planner = Planner(options: options, publisher: publisher, naming: request.naming)
        planner.digestsSources = request.handOff != nil && !options.mark
        planner.listsPlannedOutputs = options.dryRun && (request.verbosity == .verbose || request.report != nil)
        let pool = WorkerPool(workers: jobs)

        let handOff = state.flatMap { state in request.handOff.map { SourceHandOff(action: $0, state: state) } }
        /// Reports a result (`found` without a job: counted toward the progress total now)
        /// and, with `--state`, records it (and hands the source off). A result the state
        /// cannot record stops all later publishing, and its own outputs are withdrawn, so
        /// no output stays published without a record.
        let finish: @Sendable (Candidate?, ConversionResult, Int, Bool) -> Void = { candidate, result, started, found in
            var result = candidate.map { describing(result, $0) } ?? result
            if let state, let candidate {
                do {
                    let record = try state.record(candidate, result, started: started)
                    if let handOff { result = handOff.apply(candidate, record, to: result) }
                } catch {
                    publisher.stopPublishing(because: error)
                    reporter.noteStateError(error)
                    result = UnrecordedOutputs.withdraw(result, because: error)
                }
            }
            if found { reporter.recordFound(result) } else { reporter.record(result) }
        }
        /// `previous`: the state's record of a source converted again (`Verdict.changed`).
        let submit = { (plan: Plan, candidate: Candidate?, previous: SourceRecord?) in
            let started = StateDatabase.now()
            switch plan {
            case .ignore: break
            case .done(let result):
                finish(candidate, result, started, true)
            case .job(let job):
                reporter.expect()
                pool.submit { [options] in
                    let clock = POSIX.monotonicSeconds()
                    reporter.started(job.source.display)
                    // A job planned just before the run stopped is not started either.
                    var result = reporter.stoppedBy.map {
                        ConversionResult.failed(source: job.source.display, output: job.output.display, .outOfResources,
                                                "not started: the run stopped (\($0))")
                    } ?? workers.run(job, options: options)
                    result.sourceIdentity = job.sourceIdentity
                    if result.status != .failed { result.sourceSHA256 = result.sourceSHA256 ?? job.sourceSHA256 }
                    job.reservation?.settle(published: result.status == .converted || result.status == .copied)
                    if let previous {
                        if result.status == .converted { result.status = .updated }
                        result = StaleOutputs.settle(previous, in: result)
                    }
                    result.milliseconds = Int((POSIX.monotonicSeconds() - clock) * 1000)
                    finish(candidate, result, started, false)
                }
            }
        }
        let outputRoot: String? = if case .path(let root) = request.output { root } else { nil }
        let walkInputs = request.inputs.filter { $0 != "-" }
        if request.inputs.contains("-") {
            submit(planStandardInput(planner, output: request.output ?? .standardStream, naming: request.naming), nil, nil)
        }
        let candidates: AnyIterator<Result<Candidate, WalkError>>
        var listFD: Int32?
        defer { if let listFD, listFD != STDIN_FILENO { close(listFD) } }
        if let list = request.filesFrom {
            let fd = list == .standardStream ? STDIN_FILENO : POSIX.openFile(list.display, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                reporter.record(.failed(source: list.display, output: nil, ErrorCode(errno: errno, otherwise: .sourceUnreadable),
                                        "cannot open the --files-from list: \(POSIX.lastError())"))
                return ended(reporter.finish())
            }
            listFD = fd
            // Listed paths come in any order, so output claims last the whole run.
            candidates = AnyIterator(FileListWalker(fd: fd, name: list.display, separator: request.listSeparator,
                                                    base: request.base, outputRoot: outputRoot))
        } else {
            let releases = claimsReleasable(walkInputs, outputRoot: outputRoot)
            candidates = AnyIterator(InputWalker(inputs: walkInputs, outputRoot: outputRoot) { finished in
                if releases { publisher.releaseClaims(inDirectory: finished.outputDirectory) }
                // What the state recorded in the directory and the walk did not meet.
                guard let state else { return }
                do {
                    try reporter.recordFound(state.leave(root: finished.root, directory: finished.relativeDirectory))
                } catch {
                    reporter.noteStateError(error)
                }
            })
        }
        // Totals for the progress line until the walk has counted: the state's records and
        // a count of names. Only estimates, so a state that cannot count just gives none.
        if reporter.showsProgress {
            if let state, let recorded = try? walkInputs.reduce(0, { try $0 + state.recordedSources(under: $1) }) {
                reporter.estimateTotal(recorded)
            }
            if request.filesFrom == nil { InputCounter.start(walkInputs, skipping: outputRoot, found: reporter.estimateTotal) }
        }
        var lastOutputDirectory: String?
        for found in candidates {
            // A resource ran out (a full disk, no descriptors): start nothing more; cron's
            // rerun (exit 75) picks up the rest.
            guard reporter.stoppedBy == nil else { break }
            // The candidate is bound once: each pattern of a `switch` with `where` clauses copies it.
            let candidate: Candidate
            switch consume found {
            case .failure(let error):
                reporter.recordFound(.failed(source: error.path, output: nil, error.code, error.reason))
                continue
            case .success(let found): candidate = found
            }
            if let shard = request.shard, !shard.contains(relativePath: candidate.relativePath) { continue }  // another shard's
            guard request.output != .standardStream else {
                submit(planner.planToStandardOutput(candidate), nil, nil)
                continue
            }
            // Killed runs' temp files go from every directory planned into, written or not
            // (once each: a directory's candidates come one after another, so a candidate
            // with the output directory of the one before needs no look). The listing
            // also serves the state's check of the outputs recorded there.
            if !options.dryRun, candidate.outputDirectory != lastOutputDirectory {
                lastOutputDirectory = candidate.outputDirectory
                let directory = request.naming.directory(for: candidate)
                if let listed = publisher.sweepOrphans(in: directory) { state?.outputDirectoryListed(directory, listed) }
            }
            do {
                let verdict = try state?.verdict(for: candidate) ?? .new
                switch consume verdict {
                case .upToDate(var result, let record):
                    // Handed off already, or not asked: nothing more to do.
                    if let handOff, record.handedOff == nil {
                        result = handOff.apply(candidate, record, to: result)
                    }
                    reporter.recordFound(describing(result, candidate))
                case .outputModified(let result):
                    // Not recorded, nor handed off: the record stays that of the outputs as published.
                    reporter.recordFound(describing(result, candidate))
                case .changed(let record): submit(planner.plan(candidate, refreshing: record), candidate, record)
                case .new: submit(planner.plan(candidate, replacingOwn: handOff != nil), candidate, nil)
                }
            } catch {
                reporter.noteStateError(error)
                submit(planner.plan(candidate), candidate, nil)
            }
        }
        reporter.finishWalk()
        pool.waitForAll()
        workers.shutDown()
        if let state, reporter.stoppedBy == nil {
            for input in walkInputs where Path.isDirectory(input) {
                do { try reporter.recordFound(state.missingSources(under: input)) } catch { reporter.noteStateError(error) }
            }
        }
        return ended(reporter.finish(tempFilesRemoved: publisher.removedOrphans))
    }

    /// `result` with what the walk saw of its source: size and modification time.
    static func describing(_ result: consuming ConversionResult, _ candidate: Candidate) -> ConversionResult {
        guard let info = candidate.info else { return result }
        result.sourceSize = Int(info.st_size)
        result.sourceMtimeNanoseconds = info.st_mtim.nanoseconds
        return result
    }

    /// The output roots the run writes into, each locked (`RunLock`) after the state: the
    /// `-o` directory (created first, if it can be), or, with outputs beside their
    /// sources, each directory input (a listed or named file's directory is not a root of
    /// the run's). In path order, so that two runs always take them in the same order.
    /// None for a dry run or stdout.
    static func outputRoots(_ request: BatchRequest) -> [String] {
        guard !request.options.dryRun else { return [] }
        switch request.output {
        case .path(let root):
            // One that cannot be made cannot be locked either: the warning, then each output, say why.
            try? OutputPublisher.makeDirectories(root, mirroring: nil)
            return [root]
        case .standardStream:
            return []
        case nil:
            guard request.filesFrom == nil else { return [] }
            let roots = request.inputs.filter { $0 != "-" && Path.isDirectory($0) }.map { POSIX.realPath($0) ?? $0 }
            return Set(roots).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
    }

    /// Whether a directory's output claims may be dropped once the walk leaves it: only
    /// when no other input can map files into the same output directories later, that
    /// is, when every input is a directory and their output trees cannot overlap (one
    /// input; or, without `-o`, inputs none of which lies inside another). Otherwise the
    /// claims last the whole run, so collisions between inputs are still caught.
    static func claimsReleasable(_ inputs: [String], outputRoot: String?) -> Bool {
        guard inputs.allSatisfy(Path.isDirectory) else { return false }
        if inputs.count <= 1 { return true }
        guard outputRoot == nil else { return false }
        guard let roots = inputs.map(POSIX.realPath) as? [String] else { return false }
        for (i, a) in roots.enumerated() {
            for b in roots[(i + 1)...] where a == b || b.hasPrefix(a == "/" ? a : a + "/") || a.hasPrefix(b == "/" ? b : b + "/") {
                return false
            }
        }
        return true
    }

    private static func planStandardInput(_ planner: Planner, output: Endpoint, naming: OutputNaming) -> Plan {
        let bytes: [UInt8]
        do {
            bytes = try POSIX.readToEnd(STDIN_FILENO)
        } catch {
            return .done(.failed(source: "-", output: nil, .sourceUnreadable, "cannot read standard input: \(error)"))
        }
        let target: Endpoint = if case .file(let file) = naming {
            .path(file)
        } else if case .path(let root) = output {
            .path(Path.join(root, "stdin.jpg"))
        } else {
            .standardStream
        }
        return planner.planStandardInput(bytes: bytes, output: target)
    }
}
