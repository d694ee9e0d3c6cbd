#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// Everything one `convert` run needs, as parsed from the command line.
package struct BatchRequest: Sendable, Equatable {
    /// Files, directories, or `-` for stdin.
    package var inputs: [String] = []
    /// The output root; nil = next to each source; `.standardStream` = stdout.
    package var output: Endpoint?
    package var jobs = BatchRequest.cpuCount
    package var options = ConversionOptions()
    /// JSON Lines report: a path, or `.standardStream` for stdout.
    package var report: Endpoint?
    package var verbosity = Reporter.Verbosity.normal
    /// `--max-memory` in bytes; nil = derived from the pixel limit (`WorkerLimits.defaultMemory`).
    package var maxMemory: Int?
    /// `--timeout` in seconds; 0 = none.
    package var timeoutSeconds = WorkerLimits.defaultTimeoutSeconds

    package init() {}

    package static var cpuCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Files converted at once: `jobs`, or 1 for a single file (which then gets every
    /// core as decoding threads).
    var concurrentFiles: Int {
        let singleImage = inputs.count == 1 && (inputs[0] == "-" || !Path.isDirectory(inputs[0]))
        return singleImage ? 1 : max(1, jobs)
    }

    /// Each worker process's memory and time limits.
    var workerLimits: WorkerLimits {
        WorkerLimits(memoryBytes: maxMemory ?? WorkerLimits.defaultMemory(maxPixels: options.maxPixels),
                     timeoutSeconds: timeoutSeconds)
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
    package static func run(_ request: BatchRequest, publisher: OutputPublisher, workers: WorkerSupervisor) -> RunSummary {
        var reportFD: Int32?
        var reportFailure: String?
        switch request.report {
        case .path(let path):
            let fd = POSIX.openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd >= 0 { reportFD = fd } else { reportFailure = "cannot open report \(path): \(POSIX.lastError())" }
        case .standardStream:
            reportFD = STDOUT_FILENO
        case nil:
            break
        }
        defer { if let reportFD, reportFD != STDOUT_FILENO { close(reportFD) } }
        let reporter = Reporter(verbosity: request.verbosity, report: reportFD, reportName: request.report?.display ?? "-")
        if let reportFailure {
            reporter.record(.failed(source: "--report", output: nil, .reportUnwritable, reportFailure))
        }

        var options = request.options
        let jobs = request.concurrentFiles
        options.decodingThreads = max(1, BatchRequest.cpuCount / jobs)
        let planner = Planner(options: options, publisher: publisher)
        let pool = WorkerPool(workers: jobs)

        let submit = { (plan: Plan) in
            switch plan {
            case .ignore: break
            case .done(let result): reporter.record(result)
            case .job(let job):
                pool.submit { [options] in
                    let started = POSIX.monotonicSeconds()
                    // A job planned just before the run stopped is not started either.
                    var result = reporter.stoppedBy.map {
                        ConversionResult.failed(source: job.source.display, output: job.output.display, .outOfResources,
                                                "not started: the run stopped (\($0))")
                    } ?? workers.run(job, options: options)
                    job.reservation?.settle(published: result.status == .converted || result.status == .copied)
                    result.milliseconds = Int((POSIX.monotonicSeconds() - started) * 1000)
                    reporter.record(result)
                }
            }
        }
        let outputRoot: String? = if case .path(let root) = request.output { root } else { nil }
        let walkInputs = request.inputs.filter { $0 != "-" }
        if request.inputs.contains("-") {
            submit(planStandardInput(planner, output: request.output ?? .standardStream))
        }
        let releases = claimsReleasable(walkInputs, outputRoot: outputRoot)
        let walker = InputWalker(inputs: walkInputs, outputRoot: outputRoot) { directory in
            if releases { publisher.releaseClaims(inDirectory: directory) }
        }
        for found in walker {
            // A resource ran out (a full disk, no descriptors): start nothing more; cron's
            // rerun (exit 75) picks up the rest.
            guard reporter.stoppedBy == nil else { break }
            switch found {
            case .failure(let error):
                reporter.record(.failed(source: error.path, output: nil, ErrorCode(errno: error.errno, otherwise: .sourceUnreadable),
                                        error.reason))
            case .success(let candidate):
                submit(request.output == .standardStream ? planner.planToStandardOutput(candidate) : planner.plan(candidate))
            }
        }
        pool.waitForAll()
        workers.shutDown()
        return reporter.finish(tempFilesRemoved: publisher.removedOrphans)
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

    private static func planStandardInput(_ planner: Planner, output: Endpoint) -> Plan {
        let bytes: [UInt8]
        do {
            bytes = try POSIX.readToEnd(STDIN_FILENO)
        } catch {
            return .done(.failed(source: "-", output: nil, .sourceUnreadable, "cannot read standard input: \(error)"))
        }
        let target: Endpoint = if case .path(let root) = output { .path(Path.join(root, "stdin.jpg")) } else { .standardStream }
        return planner.planStandardInput(bytes: bytes, output: target)
    }
}
