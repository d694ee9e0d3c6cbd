#if canImport(Glibc)
import Glibc
#endif
import H2JDe265
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

    package init() {}

    package static var cpuCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// Runs a batch: walk → plan → worker pool → reporter.
///
/// Nothing thrown crosses the pool: every input ends as a `ConversionResult`.
package enum BatchRunner {
    /// Converts everything `request` names and returns the summary (already printed).
    /// Every path output goes through `publisher`, which the caller owns (the signal
    /// handler seals it).
    package static func run(_ request: BatchRequest, publisher: OutputPublisher) -> RunSummary {
        var reportFD: Int32?
        var reportFailure: String?
        switch request.report {
        case .path(let path):
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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
        let singleImage = request.inputs.count == 1 && (request.inputs[0] == "-" || !Path.isDirectory(request.inputs[0]))
        let jobs = singleImage ? 1 : max(1, request.jobs)
        options.decodingThreads = max(1, BatchRequest.cpuCount / jobs)
        let converter = Converter(options: options, decoders: .libde265(), publisher: publisher)
        let planner = Planner(options: options, publisher: publisher)
        let pool = WorkerPool(workers: jobs)

        let submit = { (plan: Plan) in
            switch plan {
            case .ignore: break
            case .done(let result): reporter.record(result)
            case .job(let job): pool.submit { reporter.record(converter.run(job)) }
            }
        }
        let outputRoot: String? = if case .path(let root) = request.output { root } else { nil }
        let walkInputs = request.inputs.filter { $0 != "-" }
        if request.inputs.contains("-") {
            submit(planStandardInput(planner, output: request.output ?? .standardStream))
        }
        for found in InputWalker(inputs: walkInputs, outputRoot: outputRoot) {
            switch found {
            case .failure(let error):
                reporter.record(.failed(source: error.path, output: nil, .sourceUnreadable, error.reason))
            case .success(let candidate):
                submit(request.output == .standardStream ? planner.planToStandardOutput(candidate) : planner.plan(candidate))
            }
        }
        pool.waitForAll()
        return reporter.finish(tempFilesRemoved: publisher.removedOrphans)
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
