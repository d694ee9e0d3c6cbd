#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// Runs a batch: walk → plan → worker pool → (worker processes) → publish → reporter.
///
/// Nothing thrown crosses the pool: every input ends as a `ConversionResult`.
package enum BatchRunner {
    /// The worker processes for `request`, started before anything else so that they
    /// load while the run walks and plans (none for a dry run, which decodes nothing).
    /// `program` is the worker's main (`H2JWorker`), which this target does not link.
    package static func startWorkers(for request: BatchRequest, program: WorkerProgram, publisher: OutputPublisher) -> WorkerSupervisor {
        WorkerSupervisor(prestart: request.options.dryRun ? 0 : request.concurrentFiles, limits: request.workerLimits,
                         program: program, destination: PublishedOutput(publisher: publisher))
    }

    /// Converts everything `request` names and returns the summary (already printed).
    /// Every path output goes through `publisher`, and every job through `workers`,
    /// which the caller owns (the signal handler seals the one and kills the other).
    /// With another run holding the lock, nothing is done and the summary is empty.
    package static func run(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor,
                            interruption: RunInterruption = RunInterruption()) -> RunSummary {
        switch takeLocks(request) {
        case .refused(let summary): return summary
        case .taken(let locks): return run(request, publisher: publisher, workers: workers, interruption: interruption, locks: locks)
        }
    }

    /// Watches `request`'s directories until `control` asks it to stop (`WatchCandidates`),
    /// converting each file as it settles; the summary when it stops.
    package static func watch(_ request: WatchRequest, control: WatchControl, publisher: OutputPublisher, workers: WorkerSupervisor,
                              interruption: RunInterruption = RunInterruption()) -> RunSummary {
        let locks: [RunLock]
        switch takeLocks(request.batch) {
        case .refused(let summary): return summary
        case .taken(let taken): locks = taken
        }
        let session: RunSession
        switch RunSession.start(request.batch, publisher: publisher, workers: workers, interruption: interruption, locks: locks) {
        case .refused(let summary): return summary
        case .started(let started): session = started
        }
        let candidates: WatchCandidates
        do {
            candidates = try session.watchCandidates(request, control: control)
        } catch {
            var summary = session.reporter.finish()
            summary.cannotStart = "cannot watch: inotify: \(error)"
            POSIX.writeLine("error: \(summary.cannotStart ?? "")", to: STDERR_FILENO)
            return session.ended(summary)
        }
        ServiceNotification.send("READY=1\nSTATUS=watching \(candidates.watchedDirectories) directories")
        while let found = candidates.next(), session.consider(found) {}
        ServiceNotification.send("STOPPING=1")
        return session.end()
    }

    /// The locks a run holds, or the summary of a run refused (already said).
    private enum Locks {
        case taken([RunLock])
        case refused(RunSummary)
    }

    /// The state's lock, then each output root's (`outputRoots`): a run holds them until it
    /// returns. A refusal is said on stderr and carries the run's summary.
    private static func takeLocks(_ request: BatchRequest) -> Locks {
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
                    return .refused(summary)
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
            return .refused(RunSummary())
        }
        return .taken(locks)
    }

    /// The run itself, holding `locks` until it returns: a session over the run's
    /// candidates (`RunSession`, `CandidateSource`).
    private static func run(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor,
                            interruption: RunInterruption, locks: [RunLock]) -> RunSummary {
        let session: RunSession
        switch RunSession.start(request, publisher: publisher, workers: workers, interruption: interruption, locks: locks) {
        case .refused(let summary): return summary
        case .started(let started): session = started
        }
        session.submitStandardInput()
        guard let candidates = session.candidates() else { return session.ended(session.reporter.finish()) }
        session.estimateTotals()
        while let found = candidates.next(), session.consider(found) {}
        return session.end()
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
}
