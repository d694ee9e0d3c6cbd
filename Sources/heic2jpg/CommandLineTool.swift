#if canImport(Glibc)
import Glibc
#endif
import H2JInspect
import H2JBatch
import H2JCompare
import H2JConvert
import H2JJob
import H2JSupport
import H2JWorker

/// The `heic2jpg` program: parse, run, and map the outcome to an exit code.
package enum CommandLineTool {
    /// 0 when nothing failed.
    package static let exitSuccess: Int32 = 0
    /// At least one input failed.
    package static let exitFailure: Int32 = 1
    /// EX_USAGE (sysexits.h): the command line was wrong.
    package static let exitUsage: Int32 = 64
    /// EX_UNAVAILABLE: `--decoder avcodec` where libavcodec does not load.
    package static let exitUnavailable: Int32 = 69
    /// EX_IOERR: the run would write to a standard output that is closed or read-only.
    package static let exitIOError: Int32 = 74
    // A convert run's status, 75 (EX_TEMPFAIL) among them, is `RunSummary.exitStatus`.

    /// Runs with `arguments` (program name excluded) and returns the exit code.
    /// `closedStreams` are the standard descriptors that were closed at start (and are
    /// now on /dev/null: `StandardStreams.openClosed`).
    package static func main(_ arguments: [String], closedStreams: [Int32] = []) -> Int32 {
        // Past `ulimit -f`, a write fails with EFBIG (reported) rather than killing the run.
        signal(SIGXFSZ, SIG_IGN)
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            POSIX.write(HelpText.error(error), to: STDERR_FILENO)
            return exitUsage
        }
        switch command {
        case .help(let topic):
            POSIX.write(HelpText.help(topic), to: STDOUT_FILENO)
            return exitSuccess
        case .version(let request):
            POSIX.write(VersionCommand.text(request, libraries: request.listsLibraries ? LoadedLibraries.all : []), to: STDOUT_FILENO)
            return exitSuccess
        case .manPage:
            POSIX.write(ManPage.render(), to: STDOUT_FILENO)
            return exitSuccess
        case .completionScript(let shell):
            POSIX.write(CompletionScript.render(shell), to: STDOUT_FILENO)
            return exitSuccess
        case .inspect(let request):
            return exitCode(InspectCommand.run(request))
        case .compare(var request):
            guard let decoder = resolved(request.decoder) else { return exitUnavailable }
            request.decoder = decoder
            return exitCode(CompareCommand.run(request, program: WorkerMain.program))
        case .status(let request):
            return exitCode(StatusCommand.run(request))
        case .watch(let request):
            return watch(request)
        case .convert(var request):
            guard let decoder = resolved(request.decoder) else { return exitUnavailable }
            if request.decoder == .auto { request.decoderReason = TileDecoderChoice.autoReason }
            request.decoder = decoder
            if let use = request.standardOutputUse, let problem = standardOutputProblem(closedStreams) {
                POSIX.writeLine("error: \(use): standard output \(problem); nothing done", to: STDERR_FILENO)
                return exitIOError
            }
            let publisher = OutputPublisher()
            let workers = BatchRunner.startWorkers(for: request, program: WorkerMain.program, publisher: publisher)
            let interruption = RunInterruption()
            let cleanup = SignalCleanup(publisher: publisher, workers: workers, interruption: interruption)
            let summary = BatchRunner.run(request, publisher: publisher, workers: workers, interruption: interruption)
            cleanup.yieldToEndingSignal()
            return exitCode(summary)
        }
    }

    /// `heic2jpg watch`: until SIGTERM or SIGINT (`SignalCleanup`), then 0; 73 or 75 when it
    /// could not start or a resource ran out, as a run.
    static func watch(_ request: WatchRequest) -> Int32 {
        var request = request
        guard let decoder = resolved(request.batch.decoder) else { return exitUnavailable }
        if request.batch.decoder == .auto { request.batch.decoderReason = TileDecoderChoice.autoReason }
        request.batch.decoder = decoder
        let publisher = OutputPublisher()
        let workers = BatchRunner.startWorkers(for: request.batch, program: WorkerMain.program, publisher: publisher)
        let (control, interruption) = (WatchControl(), RunInterruption())
        let cleanup = SignalCleanup(publisher: publisher, workers: workers, interruption: interruption, watch: control)
        let summary = BatchRunner.watch(request, control: control, publisher: publisher, workers: workers, interruption: interruption)
        cleanup.yieldToEndingSignal()
        // The files' failures were reported as they came; a watch that stopped did its job.
        let status = summary.exitStatus
        return status == exitFailure && summary.reportError == nil ? exitSuccess : status
    }

    /// `--decoder` resolved (`auto` to libde265, `TileDecoderChoice.autoReason`); nil, said on
    /// stderr, when the one asked for does not load: the command then exits 69 before any work.
    static func resolved(_ decoder: TileDecoderChoice) -> TileDecoderChoice? {
        do {
            return try decoder.resolved()
        } catch {
            POSIX.writeLine("error: \(error); nothing done", to: STDERR_FILENO)
            return nil
        }
    }

    /// Why stdout cannot take a run's output, checked before any work: it was closed
    /// at start (what is there now is /dev/null), or it is open only for reading.
    static func standardOutputProblem(_ closedStreams: [Int32]) -> String? {
        if closedStreams.contains(STDOUT_FILENO) { return "is closed" }
        return StandardStreams.isWritable(STDOUT_FILENO) ? nil : "is not open for writing"
    }

    /// 0, or 1 when an input failed; 75 when the run stopped because a resource ran out
    /// (`RunSummary.stoppedBy`); a report that could not be written fails the run: 75
    /// when a resource ran out, 1 otherwise.
    static func exitCode(_ summary: RunSummary) -> Int32 {
        summary.exitStatus
    }

    static func exitCode(_ status: CommandStatus) -> Int32 {
        switch status {
        case .succeeded: exitSuccess
        case .failed: exitFailure
        }
    }
}
