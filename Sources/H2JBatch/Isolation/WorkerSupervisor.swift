#if canImport(Glibc)
import Glibc
#endif
import H2JChannel
import H2JJob
import H2JOutputPlan
import H2JSupport

/// The parent's side of decoder isolation: every job runs in a worker process
/// (`WorkerProcess`), and what the worker wrote is published here.
///
/// The parent walks, plans, publishes and reports; the workers parse, decode and
/// encode, which is where hostile bytes meet libheif, libde265 and libjpeg. A worker
/// that dies (a signal, the OOM killer, an exit), overruns `--timeout`, or breaks the
/// protocol costs exactly its file: the file fails with a `WorkerDeath` reason, the
/// worker is replaced, and the batch goes on. When the worker died on an image whose
/// failure the source survives (another still image, an `--aux` image, the gain map: its
/// last `stage` message named the item), it costs only that image: the job runs again in
/// a fresh worker with the image omitted (`Job.omittedImages`), which the converter
/// reports as `image-not-converted` (or, for a gain map, `gain-map-not-used`).
///
/// Invariants: at most one job runs in a worker at a time; a worker is reused only
/// after a complete, well-formed conversation; the temp file a worker writes is
/// created, published or removed by the parent's `OutputDestination`, so a worker's
/// death can leave nothing behind.
package final class WorkerSupervisor: @unchecked Sendable {
    private let limits: WorkerLimits
    private let program: WorkerProgram
    private let destination: PublishedOutput
    private let lock = Lock()
    /// Started workers waiting for a job.
    private var idle: [WorkerProcess] = []
    /// Every live worker's pid, for `killAll`.
    private var live: Set<pid_t> = []

    /// Pre-starts `prestart` processes, so the first files do not wait for them; more
    /// start when needed (one per concurrent job). `program` is what a forked worker runs.
    package init(prestart: Int, limits: WorkerLimits, program: WorkerProgram, destination: PublishedOutput) {
        self.limits = limits
        self.program = program
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

    /// The job's result; the caller times it and settles its reservation. A death on an
    /// image other than the primary (not an interruption) runs the job again without it,
    /// each attempt with its own `--timeout`.
    package func run(_ job: Job, options: ConversionOptions) -> ConversionResult {
        var job = job
        while true {
            let (result, death) = attempt(job, options: options)
            guard let death, let item = death.image, death.code != .interrupted,
                  !job.omittedImages.contains(where: { $0.item == item }),
                  job.omittedImages.count < WorkerJob.maxOmittedImages else { return result }
            job = job.omitting(OmittedImage(item: item, reason: death.reason))
        }
    }

    /// One run of `job` in a worker: its result, and how the worker died if it did.
    private func attempt(_ job: Job, options: ConversionOptions) -> (ConversionResult, WorkerDeath?) {
        let worker: WorkerProcess
        do {
            worker = try checkOut()
        } catch {
            // No process or memory for it is a resource that ran out: the run stops.
            return (.failed(source: job.source.display, output: job.output.display,
                            ErrorCode(errno: error.errno, otherwise: .decoderCrashed),
                            "cannot start a decoder process: \(error)"), nil)
        }
        worker.stderr.reset()
        var site = Site()
        let deadline = limits.timeoutSeconds > 0 ? POSIX.monotonicSeconds() + Double(limits.timeoutSeconds) : nil
        do {
            try worker.socket.send(.job(WorkerJob(job: job.conversion, options: options)), passing: job.file?.descriptor ?? -1)
            let result = try converse(worker, job, options: options, until: deadline, site: &site)
            lock.withLock { idle.append(worker) }
            return (result, nil)
        } catch {
            let death = retire(worker, after: error, site: site)
            var result = ConversionResult.failed(source: job.source.display, output: job.output.display, death.code, death.reason)
            result.engine = site.engine
            return (result, death)
        }
    }

    /// `compare`'s Y-PSNR of `outputs` (each mode's JPEG) against `job`'s source, measured
    /// in a worker (`LumaMeasurement`), so that no decoder meets the file in this process;
    /// the worker's death or `--timeout` is the measurement's failure. With `pictures`, the
    /// worker also makes `compare --html`'s pictures.
    package func measure(_ job: Job, outputs: [(name: String, jpeg: [UInt8])], options: ConversionOptions,
                         pictures: Bool = false) -> Result<LumaMeasurement, CompareError> {
        let worker: WorkerProcess
        do {
            worker = try checkOut()
        } catch {
            return .failure(CompareError("cannot start a decoder process: \(error)"))
        }
        worker.stderr.reset()
        // The source's decode is libheif's, the outputs' libjpeg's.
        var site = Site(stage: .decode, engine: .libheif)
        let deadline = limits.timeoutSeconds > 0 ? POSIX.monotonicSeconds() + Double(limits.timeoutSeconds) : nil
        do {
            try worker.socket.send(.measure(WorkerJob(job: job.conversion, options: options), outputs, pictures: pictures), passing: job.file?.descriptor ?? -1)
            guard case .measured(let measured) = try next(worker, until: deadline, site: &site) else {
                throw WorkerSocketError.malformed(WireError(reason: "expected 'measured'"))
            }
            lock.withLock { idle.append(worker) }
            return measured
        } catch {
            return .failure(CompareError("decoding for Y-PSNR: \(retire(worker, after: error, site: site).reason)"))
        }
    }

    /// The hand-off's check of a published output, decoded in full in a worker, so that
    /// no decoder runs in this process. A worker that cannot start, dies or overruns
    /// `--timeout` gives a problem, and the hand-off keeps the source.
    func check(_ output: SourceFile) -> OutputCheck {
        let worker: WorkerProcess
        do {
            worker = try checkOut()
        } catch {
            return OutputCheck(width: nil, height: nil, problem: "cannot start a decoder process to check it: \(error)")
        }
        worker.stderr.reset()
        var site = Site(stage: .decode, engine: nil)
        let deadline = limits.timeoutSeconds > 0 ? POSIX.monotonicSeconds() + Double(limits.timeoutSeconds) : nil
        do {
            try worker.socket.send(.check, passing: output.descriptor)
            guard case .checked(let check) = try next(worker, until: deadline, site: &site) else {
                throw WorkerSocketError.malformed(WireError(reason: "expected 'checked'"))
            }
            lock.withLock { idle.append(worker) }
            return check
        } catch {
            return OutputCheck(width: nil, height: nil, problem: "the decoder process checking it failed: \(retire(worker, after: error, site: site).reason)")
        }
    }

    /// A worker whose conversation failed with `error`: killed or reaped, replaced, and
    /// how it died.
    private func retire(_ worker: WorkerProcess, after error: any Error, site: Site) -> WorkerDeath {
        let death = WorkerDeath(cause: cause(of: error, worker), stage: site.stage, engine: site.engine, image: site.image,
                                lastWords: worker.stderr.tail, limits: limits)
        lock.withLock { _ = live.remove(worker.pid) }
        if let replacement = try? start() { lock.withLock { idle.append(replacement) } }
        return death
    }

    /// Where the worker is: its last `stage` message.
    private struct Site {
        var stage: PipelineError.Stage?
        var engine: ConversionResult.Engine?
        /// The image whose failure the source survives, when the stage is for one.
        var image: UInt32?
    }

    /// The job's conversation after `job` was sent: stages, each output staged as the
    /// worker writes it (`ready` → `output` → `written`), then the result, after which
    /// the outputs are published (`JobOutputs`), or removed when the source failed.
    private func converse(_ worker: WorkerProcess, _ job: Job, options: ConversionOptions, until deadline: Double?,
                          site: inout Site) throws(WorkerSocketError) -> ConversionResult {
        let outputs = JobOutputs(destination: destination, job: job, options: options)
        defer { outputs.discardAll() }
        /// The first output the parent could not stage: the source fails with it.
        var stagingError: (any Error)?
        while true {
            switch try next(worker, until: deadline, site: &site) {
            case .result(var result):
                // A result for another source than the job's is a worker's lie; its output is
                // the job's (and, once published, the path the parent published it at).
                guard result.source == job.source.display else {
                    throw WorkerSocketError.malformed(WireError(reason: "a result for another source than its job's"))
                }
                result.output = job.output.display
                guard result.status == .converted || result.status == .copied, stagingError == nil else {
                    return stagingError.map { failure(job, $0, site: site, worker: result) } ?? result
                }
                do {
                    try outputs.publishAll(into: &result)
                } catch {
                    return failure(job, error, site: site, worker: result)
                }
                return result
            case .ready(let name):
                // The source's attributes as this process's own `fstat` saw them when it opened
                // the file it passed (none for stdin): nothing a worker says is applied.
                if let ended = try stage(name, attributes: job.file.map(OutputAttributes.init(of:)), outputs, worker,
                                         until: deadline, site: &site, error: &stagingError) {
                    return stagingError.map { failure(job, $0, site: site, worker: ended) } ?? ended
                }
            default:
                throw .malformed(WireError(reason: "expected 'ready' or 'result'"))
            }
        }
    }

    /// Stages one output: hands the worker a temp file and waits until it is written.
    /// Returns the worker's result when the worker ended the job instead (it failed while
    /// writing). When the parent cannot stage the file (a full disk), `error` keeps why,
    /// and the worker is told to give up (`abandon`) if it was still waiting for a file.
    private func stage(_ name: OutputName, attributes: OutputAttributes?, _ outputs: JobOutputs, _ worker: WorkerProcess,
                       until deadline: Double?, site: inout Site,
                       error stagingError: inout (any Error)?) throws(WorkerSocketError) -> ConversionResult? {
        var ended: ConversionResult?
        var handedOver = false
        var tracked = site
        defer { site = tracked }
        do {
            try outputs.stage(name, attributes: attributes) { fd in
                handedOver = true
                try worker.socket.send(.output, passing: fd)
                switch try next(worker, until: deadline, site: &tracked) {
                case .written:
                    return
                case .dropped:
                    throw OutputDropped()
                case .result(let result):
                    ended = result
                    throw WorkerReportedFailure()
                default:
                    throw WorkerSocketError.malformed(WireError(reason: "expected 'written' or 'result'"))
                }
            }
            return nil
        } catch let error as WorkerSocketError {
            throw error
        } catch is OutputDropped {
            return nil
        } catch {
            if let ended { return ended }
            stagingError = stagingError ?? error
            if !handedOver { try worker.socket.send(.abandon) }
            return nil
        }
    }

    /// The source failed in the parent's writing (`error`), after the worker's `result`.
    private func failure(_ job: Job, _ error: any Error, site: Site, worker result: ConversionResult) -> ConversionResult {
        var failed = ConversionResult.failed(source: job.source.display, output: job.output.display, PipelineError(.write, error))
        failed.engine = site.engine ?? result.engine
        failed.width = result.width
        failed.height = result.height
        return failed
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
            guard case .stage(let stage, let engine, let image) = message else { return message }
            site.stage = stage
            site.engine = engine ?? site.engine
            site.image = image
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

    /// A new worker: forked here while the process has one thread, otherwise started on
    /// the `WorkerStarter` thread, which outlives every worker it starts.
    private func start() throws(SystemError) -> WorkerProcess {
        let worker = try WorkerProcess.isSingleThreaded ? WorkerProcess(limits: limits, program: program)
            : WorkerStarter.shared.start(limits, program: program)
        lock.withLock { _ = live.insert(worker.pid) }
        return worker
    }
}

/// The worker's result was a failure: the destination must not publish its file.
private struct WorkerReportedFailure: Error {}

/// The worker gave up an output and goes on with the job: its file is removed.
private struct OutputDropped: Error {}
