#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JState
import H2JSupport

/// One run from its start to its end: the locks, the report and its reporter, the state
/// and its hand-off, the planner, the pool and the workers. A `CandidateSource` feeds it:
/// `consider` takes each candidate to its plan, `submit` each plan to a worker or a result,
/// and `end` takes the steps every finished run takes. It lives on the thread that walks;
/// what the pool's threads touch is the `ResultRecorder`'s.
final class RunSession {
    let request: BatchRequest
    let reporter: Reporter
    let state: RunState?
    private let publisher: OutputPublisher
    private let workers: WorkerSupervisor
    /// Held as long as the session is.
    private let locks: [RunLock]
    private let reportFD: Int32?
    private let options: ConversionOptions
    private let planner: Planner
    private let pool: WorkerPool
    private let recorder: ResultRecorder
    private let outputRoot: String?
    /// Where the last candidate's outputs go: a directory's candidates come one after
    /// another, so a candidate with the same one needs no look for killed runs' temp files.
    private var lastOutputDirectory: String?
    /// Whether a source found up to date is reported (not in a watch, whose rescans meet
    /// every converted source again).
    private var reportsUpToDate = true

    /// A run that started, or the summary of one refused before any work.
    enum Start {
        case started(RunSession)
        case refused(RunSummary)
    }

    /// Opens the report and the state, each refused before any work when it cannot be
    /// (73, or 75 when a resource ran out: `Reporter.noteCannotStart`), then sets the run up.
    static func start(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor,
                      interruption: RunInterruption, locks: [RunLock]) -> Start {
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
        let reporter = Reporter(verbosity: request.verbosity, report: reportFD, reportName: request.report?.display ?? "-",
                                tileDecoder: request.decoder.backend, decoderReason: request.decoderReason,
                                showsExcluded: request.options.dryRun)
        interruption.attach(reporter)
        if request.verbosity == .verbose { request.shareNotes(.current).forEach(reporter.note) }
        // A report that cannot be written is refused before any work: a run whose record
        // would be lost converts nothing.
        if let reportErrno, case .path(let path) = request.report {
            let reason = "cannot open report \(path): \(POSIX.describe(reportErrno))"
            reporter.record(.failed(source: "--report", output: nil, .reportUnwritable, reason + "; nothing done"))
            reporter.noteCannotStart(reason, exhaustion: ErrorCode(errno: reportErrno, otherwise: .reportUnwritable).isExhaustion)
            return .refused(reporter.finish())
        }
        let state: RunState?
        do {
            // A dry run reads the state, and plans as a first run where there is none yet: it creates nothing.
            let stateFile = request.stateFile.flatMap { !request.options.dryRun || POSIX.fileInfo($0) != nil ? $0 : nil }
            state = try stateFile.map { path throws(StateError) in
                try RunState(path: path, options: request.options, naming: request.naming, recheck: request.recheck,
                             handingOff: request.handOff != nil, shard: request.shard)
            }
            if let damage = state?.database.damage { POSIX.writeLine("warning: --state \(damage)", to: STDERR_FILENO) }
            if request.handOff != nil { try state?.database.makeCommitsDurable() }
        } catch {
            reporter.record(.failed(source: "--state", output: nil, ErrorCode(classifying: error), error.description))
            reporter.noteCannotStart(error.description, exhaustion: ErrorCode(classifying: error).isExhaustion)
            let summary = reporter.finish()
            if let reportFD, reportFD != STDOUT_FILENO { close(reportFD) }
            return .refused(summary)
        }
        return .started(RunSession(request, publisher: publisher, workers: workers, locks: locks, reportFD: reportFD,
                                   reporter: reporter, state: state))
    }

    private init(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor, locks: [RunLock],
                 reportFD: Int32?, reporter: Reporter, state: RunState?) {
        (self.request, self.publisher, self.workers, self.locks) = (request, publisher, workers, locks)
        (self.reportFD, self.reporter, self.state) = (reportFD, reporter, state)
        if let state { publisher.protectOutputs(ofHandedOff: state.handedOffSource) }
        var options = request.options
        let jobs = request.concurrentFiles
        options.decodingThreads = max(1, BatchRequest.cpuCount / jobs)
        self.options = options
        planner = Planner(options: options, publisher: publisher, naming: request.naming)
        planner.listsPlannedOutputs = options.dryRun && (request.verbosity == .verbose || request.report != nil)
        pool = WorkerPool(workers: jobs)
        let handOff = state.flatMap { state in request.handOff.map { SourceHandOff(action: $0, state: state, workers: workers) } }
        recorder = ResultRecorder(state: state, handOff: handOff, publisher: publisher, reporter: reporter)
        outputRoot = if case .path(let root) = request.output { root } else { nil }
    }

    /// The inputs walked: every input but `-`.
    var walkInputs: [String] { request.inputs.filter { $0 != "-" } }

    /// Stdin's image, first, when `-` is an input.
    func submitStandardInput() {
        guard request.inputs.contains("-") else { return }
        submit(Self.planStandardInput(planner, output: request.output ?? .standardStream, naming: request.naming), nil, nil)
    }

    /// The run's candidates: a `--files-from` list, or the walk of the inputs; nil when
    /// the list cannot be opened (recorded as a failure).
    func candidates() -> (any CandidateSource)? {
        if let list = request.filesFrom {
            // Listed paths come in any order, so output claims last the whole run.
            guard let listed = ListedCandidates(list, separator: request.listSeparator, base: request.base, outputRoot: outputRoot,
                                                excludes: request.excludes, onExclude: reporter.noteExcluded) else {
                reporter.record(.failed(source: list.display, output: nil, ErrorCode(errno: errno, otherwise: .sourceUnreadable),
                                        "cannot open the --files-from list: \(POSIX.lastError())"))
                return nil
            }
            return listed
        }
        return walker(excluding: request.excludes)
    }

    /// A walk of the inputs leaving out `excludes` (the user's `--exclude` ones said in a
    /// dry run or with `-v`). Leaving a directory drops its output claims when the inputs'
    /// trees cannot meet, and reports what the state recorded there and the walk did not meet.
    private func walker(excluding excludes: ExcludePatterns) -> InputWalker {
        let releases = Self.claimsReleasable(walkInputs, outputRoot: outputRoot)
        let asked = Set(request.excludes.patterns)
        return InputWalker(inputs: walkInputs, outputRoot: outputRoot, excludes: excludes,
                           onExclude: { [reporter] path, pattern in if asked.contains(pattern) { reporter.noteExcluded(path, pattern) } }
        ) { [publisher, state, reporter] finished in
            if releases { publisher.releaseClaims(inDirectory: finished.outputDirectory) }
            // What the state recorded in the directory and the walk did not meet.
            guard let state else { return }
            do {
                try reporter.recordFound(state.leave(root: finished.root, directory: finished.relativeDirectory))
            } catch {
                reporter.noteStateError(error)
            }
        }
    }

    /// The candidates of `heic2jpg watch`: walks that pass over uploaders' temp names, and
    /// each file as it settles. A settled file's state record is read alone
    /// (`Candidate.walked`), and the output claims go whenever no job is under way, so
    /// neither grows with the files a long watch sees. Sources found up to
    /// date (every one a rescan meets again) are not reported.
    func watchCandidates(_ watch: WatchRequest, control: WatchControl) throws(SystemError) -> WatchCandidates {
        reportsUpToDate = false
        let excludes = ExcludePatterns(request.excludes.patterns + UploadTempNames.patterns + watch.tempNames)
        let settings = WatchCandidates.Settings(inputs: walkInputs, outputRoot: outputRoot, excludes: excludes,
                                                settleSeconds: watch.settleSeconds, rescanSeconds: watch.rescanSeconds)
        return try WatchCandidates(settings, control: control, makeWalk: { [unowned self] in walker(excluding: excludes) },
                                   onIdle: { [pool, publisher] in if pool.isIdle { publisher.releaseAllClaims() } },
                                   onSummary: { [reporter] in reporter.printSummarySoFar() })
    }

    /// Totals for the progress line until the walk has counted: the state's records and a
    /// count of names. Only estimates, so a state that cannot count just gives none.
    func estimateTotals() {
        guard reporter.showsProgress else { return }
        if let state, let recorded = try? walkInputs.reduce(0, { try $0 + state.recordedSources(under: $1) }) {
            reporter.estimateTotal(recorded)
        }
        if request.filesFrom == nil { InputCounter.start(walkInputs, skipping: outputRoot, found: reporter.estimateTotal) }
    }

    /// Takes one candidate (or the walk's failure) to its plan. False when the run must
    /// start nothing more: a resource ran out (a full disk, no descriptors), and cron's
    /// rerun (exit 75) picks up the rest.
    func consider(_ found: consuming Result<Candidate, WalkError>) -> Bool {
        guard reporter.stoppedBy == nil else { return false }
        // The candidate is bound once: each pattern of a `switch` with `where` clauses copies it.
        let candidate: Candidate
        switch consume found {
        case .failure(let error):
            reporter.recordFound(.failed(source: error.path, output: nil, error.code, error.reason))
            return true
        case .success(let found): candidate = found
        }
        if let shard = request.shard, !shard.contains(relativePath: candidate.relativePath) { return true }  // another shard's
        guard request.output != .standardStream else {
            submit(planner.planToStandardOutput(candidate), nil, nil)
            return true
        }
        // Killed runs' temp files go from every directory planned into, written or not (once
        // each). The listing also serves the state's check of the outputs recorded there.
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
                if let handOff = recorder.handOff, record.handedOff == nil {
                    result = handOff.apply(candidate, record, to: result)
                }
                if reportsUpToDate || result.handOff != nil || result.warnings.contains(where: { $0.code == .sourceKept || $0.code == .sourceChanged }) {
                    reporter.recordFound(ResultRecorder.describing(result, candidate))
                }
            case .outputModified(let result):
                // Not recorded, nor handed off: the record stays that of the outputs as published.
                reporter.recordFound(ResultRecorder.describing(result, candidate))
            case .changed(let record): submit(planner.plan(candidate, refreshing: record), candidate, record)
            case .new: submit(planner.plan(candidate, replacingOwn: recorder.handOff != nil), candidate, nil)
            }
        } catch {
            reporter.noteStateError(error)
            submit(planner.plan(candidate), candidate, nil)
        }
        return true
    }

    /// A plan to its end: a result now, or a job for a worker, whose result is recorded
    /// when it comes. `previous`: the state's record of a source converted again.
    private func submit(_ plan: Plan, _ candidate: Candidate?, _ previous: SourceRecord?) {
        let started = StateDatabase.now()
        switch plan {
        case .ignore: break
        case .done(let result):
            recorder.finish(candidate, result, started: started, found: true)
        case .job(let job):
            reporter.expect()
            pool.submit { [options, workers, reporter, recorder] in
                let clock = POSIX.monotonicSeconds()
                let job = job.digested()
                reporter.started(job.source.display)
                // A job planned just before the run stopped is not started either.
                var result = reporter.stoppedBy.map {
                    ConversionResult.failed(source: job.source.display, output: job.output.display, .outOfResources,
                                            "not started: the run stopped (\($0))")
                } ?? workers.run(job, options: options)
                result.sourceIdentity = job.sourceIdentity
                result.sourceSHA256 = job.sourceSHA256
                job.reservation?.settle(published: result.status == .converted || result.status == .copied)
                if let previous {
                    if result.status == .converted { result.status = .updated }
                    result = StaleOutputs.settle(previous, in: result)
                }
                result.milliseconds = Int((POSIX.monotonicSeconds() - clock) * 1000)
                recorder.finish(candidate, result, started: started, found: false)
            }
        }
    }

    /// The end of a run whose candidates all came: the jobs finished, the workers shut
    /// down, the sources the state recorded and no walk met, then `ended`.
    func end() -> RunSummary {
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

    /// Every way out of a started run: the state's record of the run gets its counts and
    /// is closed, then the report.
    func ended(_ summary: RunSummary) -> RunSummary {
        do { try state?.finish(summary) } catch { POSIX.writeLine("error: \(error)", to: STDERR_FILENO) }
        if let reportFD, reportFD != STDOUT_FILENO { close(reportFD) }
        return summary
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

    /// Stdin's bytes, planned to `naming`'s file, `stdin.jpg` in the output root, or stdout.
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

/// Reports each result (`found` without a job: counted toward the progress total now)
/// and, with `--state`, records it and hands its source off. A result the state cannot
/// record stops all later publishing, and its own outputs are withdrawn, so no output
/// stays published without a record. Called from the pool's threads.
struct ResultRecorder: Sendable {
    let state: RunState?
    let handOff: SourceHandOff?
    let publisher: OutputPublisher
    let reporter: Reporter

    func finish(_ candidate: Candidate?, _ result: ConversionResult, started: Int, found: Bool) {
        var result = candidate.map { ResultRecorder.describing(result, $0) } ?? result
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

    /// `result` with what the walk saw of its source: size and modification time.
    static func describing(_ result: consuming ConversionResult, _ candidate: Candidate) -> ConversionResult {
        guard let info = candidate.info else { return result }
        result.sourceSize = Int(info.st_size)
        result.sourceMtimeNanoseconds = info.st_mtim.nanoseconds
        return result
    }
}
