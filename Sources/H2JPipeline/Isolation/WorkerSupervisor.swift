#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// The parent's side of decoder isolation: every job runs in a worker process
/// (`WorkerProcess`), and what the worker wrote is published here.
///
/// The parent walks, plans, publishes and reports; the workers parse, decode and
/// encode, which is where hostile bytes meet libheif, libde265 and libjpeg. A worker
/// that dies (a signal, the OOM killer, an exit), overruns `--timeout`, or breaks the
/// protocol costs exactly its file: the file fails with a `WorkerDeath` reason, the
/// worker is replaced, and the batch goes on.
///
/// Invariants: at most one job runs in a worker at a time; a worker is reused only
/// after a complete, well-formed conversation; the temp file a worker writes is
/// created, published or removed by the parent's `OutputDestination`, so a worker's
/// death can leave nothing behind.
package final class WorkerSupervisor: @unchecked Sendable {
    private let limits: WorkerLimits
    private let destination: any OutputDestination
    private let lock = Lock()
    /// Started workers waiting for a job.
    private var idle: [WorkerProcess] = []
    /// Every live worker's pid, for `killAll`.
    private var live: Set<pid_t> = []

    /// Pre-starts `prestart` processes, so the first files do not wait for them; more
    /// start when needed (one per concurrent job).
    package init(prestart: Int, limits: WorkerLimits, destination: any OutputDestination) {
        self.limits = limits
        self.destination = destination
        for _ in 0..<max(0, prestart) {
            if let worker = try? start() { idle.append(worker) }
        }
    }

    /// Stops the idle workers (all of them, once the run's jobs are done).
    package func shutDown() {
        let stopping = lock.withLock { () -> [WorkerProcess] in
            defer { idle.removeAll() }
            for worker in idle { live.remove(worker.pid) }
            return idle
        }
        withExtendedLifetime(stopping) {}
    }

    /// Kills every worker at once: the signal handler's first step, before it exits.
    package func killAll() {
        lock.withLock { for pid in live { kill(pid, SIGKILL) } }
    }

    /// The job's result; the caller times it and settles its reservation.
    package func run(_ job: Job, options: ConversionOptions) -> ConversionResult {
        let worker: WorkerProcess
        do {
            worker = try checkOut()
        } catch {
            // No process or memory for it is a resource that ran out: the run stops.
            let exhausted: Set<Int32> = [EAGAIN, ENOMEM, EMFILE, ENFILE]
            return .failed(source: job.source.display, output: job.output.display,
                           exhausted.contains(error.errno) ? .outOfResources : .decoderCrashed,
                           "cannot start a decoder process: \(error)")
        }
        worker.stderr.reset()
        var site = Site()
        let deadline = limits.timeoutSeconds > 0 ? POSIX.monotonicSeconds() + Double(limits.timeoutSeconds) : nil
        do {
            try worker.socket.send(.job(WorkerJob(job: job, options: options)))
            let result = try converse(worker, job, until: deadline, site: &site)
            lock.withLock { idle.append(worker) }
            return result
        } catch {
            let death = WorkerDeath(cause: cause(of: error, worker), stage: site.stage, engine: site.engine,
                                    lastWords: worker.stderr.tail, limits: limits)
            lock.withLock { _ = live.remove(worker.pid) }
            if let replacement = try? start() { lock.withLock { idle.append(replacement) } }
            var result = ConversionResult.failed(source: job.source.display, output: job.output.display, death.code, death.reason)
            result.engine = site.engine
            return result
        }
    }

    /// Where the worker is: its last `stage` message.
    private struct Site {
        var stage: PipelineError.Stage?
        var engine: ConversionResult.Engine?
    }

    /// The job's conversation after `job` was sent: stages, then a result, or `ready`
    /// and the publishing of what the worker writes.
    private func converse(_ worker: WorkerProcess, _ job: Job, until deadline: Double?,
                          site: inout Site) throws(WorkerSocketError) -> ConversionResult {
        switch try next(worker, until: deadline, site: &site) {
        case .result(let result):
            return result
        case .ready(let attributes):
            return try publish(worker, job, attributes: attributes, until: deadline, site: &site)
        default:
            throw .malformed(WireError(reason: "expected 'ready' or 'result'"))
        }
    }

    /// Hands the worker a temp file from the destination and waits for its result; the
    /// destination publishes the file only when the worker converted or copied.
    private func publish(_ worker: WorkerProcess, _ job: Job, attributes: OutputAttributes?, until deadline: Double?,
                         site: inout Site) throws(WorkerSocketError) -> ConversionResult {
        var workerResult: ConversionResult?
        var handedOver = false
        var tracked = site
        do {
            let written = try destination.write(job, attributes: attributes) { fd in
                handedOver = true
                try worker.socket.send(.output, passing: fd)
                let result = try expectResult(worker, until: deadline, site: &tracked)
                workerResult = result
                guard result.status == .converted || result.status == .copied else { throw WorkerReportedFailure() }
            }
            site = tracked
            guard var result = workerResult else { throw WorkerSocketError.malformed(WireError(reason: "no result")) }
            result.bytes = written.bytes
            result.outputSHA256 = written.sha256
            return result
        } catch let error as WorkerSocketError {
            site = tracked
            throw error
        } catch {
            site = tracked
            if let workerResult, error is WorkerReportedFailure { return workerResult }
            // The publisher failed: before the hand-over the worker still waits for a file.
            if !handedOver {
                try worker.socket.send(.abandon)
                _ = try expectResult(worker, until: deadline, site: &site)
            }
            var result = ConversionResult.failed(source: job.source.display, output: job.output.display,
                                                 PipelineError(.write, error))
            result.engine = site.engine
            if let workerResult {
                result.width = workerResult.width
                result.height = workerResult.height
            }
            return result
        }
    }

    private func expectResult(_ worker: WorkerProcess, until deadline: Double?,
                              site: inout Site) throws(WorkerSocketError) -> ConversionResult {
        guard case .result(let result) = try next(worker, until: deadline, site: &site) else {
            throw .malformed(WireError(reason: "expected 'result'"))
        }
        return result
    }

    /// The worker's next message other than `stage` (which updates `site`).
    private func next(_ worker: WorkerProcess, until deadline: Double?,
                      site: inout Site) throws(WorkerSocketError) -> WorkerMessage {
        while true {
            let (message, descriptor) = try worker.socket.receive(until: deadline, drain: worker.stderr)
            if let descriptor {
                close(descriptor)
                throw .malformed(WireError(reason: "a worker sent a descriptor"))
            }
            guard case .stage(let stage, let engine) = message else { return message }
            site.stage = stage
            site.engine = engine ?? site.engine
        }
    }

    /// What happened to a worker whose conversation failed; it is killed or reaped here.
    private func cause(of error: any Error, _ worker: WorkerProcess) -> WorkerDeath.Cause {
        switch error as? WorkerSocketError {
        case .closed?:
            return .died(worker.reap())
        case .timedOut?:
            _ = worker.kill()
            return .timedOut(seconds: limits.timeoutSeconds)
        default:
            _ = worker.kill()
            return .misbehaved("\(error)")
        }
    }

    private func checkOut() throws(SystemError) -> WorkerProcess {
        if let worker = lock.withLock({ idle.popLast() }) { return worker }
        return try start()
    }

    private func start() throws(SystemError) -> WorkerProcess {
        let worker = try WorkerProcess(limits: limits)
        lock.withLock { _ = live.insert(worker.pid) }
        return worker
    }
}

/// The worker's result was a failure: the destination must not publish its file.
private struct WorkerReportedFailure: Error {}
