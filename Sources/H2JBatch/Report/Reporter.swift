#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import H2JJob
import H2JSupport

/// Receives every result, from any thread, and turns it into what the user sees:
/// per-file lines on stderr, a progress line on a TTY, the JSON Lines report, the
/// summary. One lock serialises all of it, so lines never interleave.
///
/// What stderr gets, by verbosity: failures always. Normally also `missing:` lines, one
/// summary line per kind of warning at the end (`WarningTally`), and the summary line.
/// `-v` adds a line per file and each warning. `--quiet`: failures only, and the summary
/// line when the run did not end cleanly (a failure, a stop, a state error) or the
/// hand-off kept a source; a clean quiet run prints nothing, which is what cron mails.
package final class Reporter: @unchecked Sendable {
    package enum Verbosity: Sendable { case quiet, normal, verbose }

    private let lock = Lock()
    private let verbosity: Verbosity
    private let progress: Bool
    private let report: Int32?
    /// What `--report` named, for messages.
    private let reportName: String
    /// The run's tile decoder, named beside the `tiles` engine (`tiles/avcodec`).
    private let tileDecoder: TileDecoderChoice?
    /// Whether `noteExcluded` speaks without `-v` (a dry run).
    private let showsExcluded: Bool
    private let started = POSIX.monotonicSeconds()
    private var lastProgress = 0.0
    private var progressShown = false
    /// What the progress line counts toward: results the walk has promised so far
    /// (`expect`), whether the walk is over (then that is the total), and the state's
    /// count of recorded sources as an estimate until then.
    private var expected = 0
    private var walkFinished = false
    private var estimatedTotal: Int?
    /// The file most recently started or finished, for the progress line.
    private var current: String?
    /// Redraws the progress line twice a second while nothing finishes (a long file).
    private var timer: DispatchSourceTimer?
    private var warnings = WarningTally()
    package private(set) var summary = RunSummary()
    /// The summary has been written (a report ends with exactly one).
    private var finished = false
    /// Lines `-v` prints beside the summary (`note`).
    private var notes: [String] = []

    /// `report` is a descriptor for JSON Lines (not closed here), `reportName` what the
    /// user called it. A progress line is shown only when stderr is a terminal, so cron
    /// and CI logs stay clean.
    package init(verbosity: Verbosity, report: Int32?, reportName: String = "-", tileDecoder: TileDecoderChoice? = nil,
                 decoderReason: String? = nil, showsExcluded: Bool = false) {
        self.verbosity = verbosity
        self.showsExcluded = showsExcluded
        summary.decoderReason = decoderReason
        self.tileDecoder = tileDecoder
        self.report = report
        self.reportName = reportName
        progress = verbosity != .quiet && isatty(STDERR_FILENO) == 1
        if progress {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
            timer.setEventHandler { [weak self] in self?.lock.withLock { self?.showProgress(force: true) } }
            timer.resume()
            self.timer = timer
        }
    }

    deinit { timer?.cancel() }

    /// Keeps a line for `-v` to print beside the summary, once the work is done (a full
    /// stderr then blocks only after the outputs are published).
    package func note(_ line: String) {
        lock.withLock { notes.append(line) }
    }

    /// `--exclude` left `path` out: said in a dry run (which shows what a run would do) and
    /// with `-v`, never with `--quiet`.
    @Sendable package func noteExcluded(_ path: String, _ pattern: String) {
        guard verbosity == .verbose || (showsExcluded && verbosity != .quiet) else { return }
        lock.withLock {
            clearProgress()
            POSIX.writeLine("excluded: \(path) (--exclude \(pattern))", to: STDERR_FILENO)
        }
    }

    /// Whether a progress line is shown (stderr is a terminal, not `--quiet`).
    package var showsProgress: Bool { progress }

    /// The walk found `count` more inputs that will each end in a result.
    package func expect(_ count: Int = 1) {
        lock.withLock { expected += count }
    }

    /// Results the run came to without a job (a walk failure, an up-to-date source, a
    /// missing one, a plan refused): counted toward the total, then recorded.
    package func recordFound(_ results: [ConversionResult]) {
        expect(results.count)
        results.forEach(record)
    }

    /// One result the run came to without a job (`recordFound(_:)` of one, with no array).
    package func recordFound(_ result: ConversionResult) {
        expect()
        record(result)
    }

    /// The walk is over: the results expected so far are all there will be.
    package func finishWalk() {
        lock.withLock { walkFinished = true }
    }

    /// A total to show until the walk has counted (the sources the state records, the
    /// files named like HEIF): the largest estimate is kept.
    @Sendable package func estimateTotal(_ count: Int) {
        lock.withLock { if count > (estimatedTotal ?? 0) { estimatedTotal = count } }
    }

    /// A file's conversion has started.
    package func started(_ source: String) {
        lock.withLock {
            current = source
            showProgress()
        }
    }

    package func record(_ result: ConversionResult) {
        lock.lock()
        defer { lock.unlock() }
        summary.count(result.status)
        if result.warnings.contains(where: { $0.code == .sourceKept || $0.code == .sourceChanged }) { summary.kept += 1 }
        current = result.source
        if verbosity == .normal { warnings.add(result) }
        if summary.stoppedBy == nil, result.errorCode?.isExhaustion == true {
            summary.stoppedBy = "\(result.source): \(result.reason ?? "a resource ran out")"
        }
        if report != nil { writeReport(Self.json(result, tileDecoder: tileDecoder)) }
        if let line = Self.message(for: result, verbosity: verbosity, tileDecoder: tileDecoder) {
            clearProgress()
            POSIX.writeLine(line, to: STDERR_FILENO)
        }
        showProgress()
    }

    /// A state database failure during the run (the run fails). The first is printed
    /// and kept in the summary. One that means a resource ran out under the state (a full
    /// or read-only disk) also stops the run, as an output disk does: no conversion goes
    /// on unrecorded.
    package func noteStateError(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        if summary.stoppedBy == nil, ErrorCode(classifying: error).isExhaustion { summary.stoppedBy = "\(error)" }
        guard summary.stateError == nil else { return }
        summary.stateError = "\(error)"
        clearProgress()
        POSIX.writeLine("error: \(error)", to: STDERR_FILENO)
    }

    /// The run could not start: its `--state` or `--report` could not be opened. It ends
    /// with 75 when a resource ran out, else 73 (`RunSummary.cannotStart`).
    package func noteCannotStart(_ reason: String, exhaustion: Bool) {
        lock.withLock {
            if exhaustion { summary.stoppedBy = summary.stoppedBy ?? reason } else { summary.cannotStart = reason }
        }
    }

    /// The report's summary for a run a signal is ending (`SignalCleanup`), with
    /// `interruptedBy`. Only if the lock is free within a moment: a thread holding it may
    /// be blocked on a full stderr, and the signal must end the run regardless. Written
    /// once; false when it could not be.
    @discardableResult
    package func finishInterrupted(by signal: String) -> Bool {
        let deadline = POSIX.monotonicSeconds() + 0.2
        while !lock.tryLock() {
            guard POSIX.monotonicSeconds() < deadline else { return false }
            usleep(1000)
        }
        defer { lock.unlock() }
        guard !finished else { return false }
        finished = true
        summary.seconds = POSIX.monotonicSeconds() - started
        summary.interruptedBy = signal
        if report != nil { writeReport(Self.json(summary)) }
        return true
    }

    /// The reason of the first result that means a resource ran out (`ErrorCode.isExhaustion`),
    /// once one has been recorded: the run then starts no more files.
    package var stoppedBy: String? { lock.withLock { summary.stoppedBy } }

    /// The summary line so far, on stderr: a watch says it every hour and on SIGUSR1.
    package func printSummarySoFar() {
        lock.withLock {
            var soFar = summary
            soFar.seconds = POSIX.monotonicSeconds() - started
            clearProgress()
            POSIX.writeLine(soFar.line, to: STDERR_FILENO)
        }
    }

    /// Prints the summary line (unless quiet) and writes the report's summary object;
    /// `tempFilesRemoved` is what the publisher's sweeps removed.
    package func finish(tempFilesRemoved: Int = 0) -> RunSummary {
        lock.lock()
        defer { lock.unlock() }
        timer?.cancel()
        finished = true
        summary.seconds = POSIX.monotonicSeconds() - started
        summary.tempFilesRemoved = tempFilesRemoved
        clearProgress()
        writeReport(Self.json(summary))
        warnings.lines.forEach { POSIX.writeLine($0, to: STDERR_FILENO) }
        if verbosity == .verbose {
            notes.forEach { POSIX.writeLine($0, to: STDERR_FILENO) }
            if let reason = summary.decoderReason { POSIX.writeLine("decoder: \(reason)", to: STDERR_FILENO) }
        }
        if verbosity != .quiet || summary.exitStatus != 0 || summary.kept > 0 { POSIX.writeLine(summary.line, to: STDERR_FILENO) }
        if let error = summary.reportError { POSIX.writeLine("error: --report \(reportName): \(error.reason)", to: STDERR_FILENO) }
        return summary
    }

    /// Appends one line to the report. The first failure (a full disk, EFBIG under
    /// `ulimit -f`; a closed pipe ends the run by SIGPIPE first, `SignalCleanup`) is kept
    /// in the summary, which makes the run fail, and
    /// no more is written: a report is complete or the exit code says it is not.
    private func writeReport(_ line: String) {
        guard let report, summary.reportError == nil else { return }
        do {
            try POSIX.writeAll(Array((line + "\n").utf8), to: report, path: reportName)
        } catch {
            summary.reportError = error
        }
    }

    /// Per-file line: failures always; missing sources unless quiet; everything, each
    /// warning included, when verbose (normally warnings are tallied, `WarningTally`).
    static func message(for result: ConversionResult, verbosity: Verbosity, tileDecoder: TileDecoderChoice? = nil) -> String? {
        switch result.status {
        case .failed:
            return "error: \(result.source): \(result.reason ?? "failed")"
        case .missingSource where verbosity != .quiet:
            return "missing: \(result.source): \(result.reason ?? "the source is gone")"
        case _ where verbosity == .verbose:
            var line = "\(result.status.rawValue): \(result.source)"
            if let output = result.output { line += " -> \(output)" }
            if let width = result.width, let height = result.height { line += " (\(width)×\(height))" }
            // Every other file written (or, in a dry run, planned) for it.
            let others = result.outputs.map(\.path).filter { $0 != result.output }
            if !others.isEmpty { line += " + " + others.joined(separator: ", ") }
            if let engine = result.engine {
                line += " [engine \(engine.label(decoder: tileDecoder))\(result.engineReason.map { ": \($0)" } ?? "")]"
            }
            if let reason = result.reason { line += ": \(reason)" }
            return ([line] + result.warnings.map { "warning: \(result.source): \($0.message)" }).joined(separator: "\n")
        default:
            return nil
        }
    }

    /// One report line. Paths are absolute (`-` stays stdin or stdout, and a pseudo-source
    /// such as `--report` stays as it is). `decoder` is `tileDecoder` for the `tiles` engine.
    static func json(_ result: ConversionResult, tileDecoder: TileDecoderChoice? = nil) -> String {
        var line = JSONLine()
        let source = reportPath(result.source)
        let output = result.output.map(reportPath)
        line.add("source", source)
        line.add("output", output)
        // A name that is not UTF-8 is in `source`/`output` with its bytes escaped
        // (`PathBytes`); these give the exact bytes too.
        if PathBytes.hasEscapes(source) { line.add("sourceHex", Hex.string(PathBytes.bytes(source))) }
        if let output, PathBytes.hasEscapes(output) { line.add("outputHex", Hex.string(PathBytes.bytes(output))) }
        line.add("sourceSize", result.sourceSize)
        line.add("sourceMtime", result.sourceMtimeNanoseconds.map { POSIX.utcTime(nanoseconds: $0) })
        line.add("sourceSHA256", result.sourceSHA256)
        line.add("outputSHA256", result.outputSHA256)
        line.add("status", result.status.rawValue)
        line.add("reason", result.reason)
        line.add("errorCode", result.errorCode?.rawValue)
        line.add("width", result.width)
        line.add("height", result.height)
        line.add("bytes", result.bytes)
        line.add("engine", result.engine?.rawValue)
        line.add("engineReason", result.engineReason)
        line.add("decoder", result.engine?.tileDecoder(tileDecoder)?.rawValue)
        line.add("hdr", result.hdr)
        var metadata = JSONLine()
        metadata.add("exif", result.metadata.exif)
        metadata.add("xmp", result.metadata.xmp)
        metadata.add("icc", result.metadata.icc)
        line.add("metadata", object: metadata)
        if !result.outputs.isEmpty {
            // Every file written for the source, the primary's first: with `--images all`,
            // one per still image (`item` is its ID in the source's container).
            line.add("outputs", objects: result.outputs.map { file in
                var entry = JSONLine()
                let path = file.path == "-" ? "-" : reportPath(file.path)
                entry.add("path", path)
                if PathBytes.hasEscapes(path) { entry.add("pathHex", Hex.string(PathBytes.bytes(path))) }
                entry.add("kind", file.kind)
                entry.add("item", Int(file.item))
                // A dry run's planned files have no size yet.
                if result.status != .planned {
                    entry.add("width", file.width)
                    entry.add("height", file.height)
                    entry.add("bytes", file.bytes)
                    entry.add("sha256", file.sha256)
                }
                return entry
            })
        }
        line.add("warnings", result.warnings.map(\.message))
        line.add("warningCodes", result.warnings.map(\.code.rawValue))
        line.add("handOff", result.handOff)
        line.add("ms", result.milliseconds)
        return line.text
    }

    static func json(_ summary: RunSummary) -> String {
        var line = JSONLine()
        line.add("summary", true)
        line.add("converted", summary.converted)
        line.add("updated", summary.updated)
        line.add("copied", summary.copied)
        line.add("skipped", summary.skipped)
        line.add("planned", summary.planned)
        line.add("failed", summary.failed)
        line.add("missingSources", summary.missingSources)
        line.add("kept", summary.kept)
        line.add("seconds", summary.seconds)
        line.add("imagesPerSecond", summary.imagesPerSecond)
        line.add("tempFilesRemoved", summary.tempFilesRemoved)
        line.add("stoppedBy", summary.stoppedBy)
        line.add("cannotStart", summary.cannotStart)
        line.add("interruptedBy", summary.interruptedBy)
        line.add("decoderReason", summary.decoderReason)
        return line.text
    }

    static func reportPath(_ path: String) -> String {
        path == "-" || path.hasPrefix("--") ? path : Path.absolute(path)
    }

    /// Redraws the progress line (holding `lock`), at most ten times a second unless
    /// `force`d by the timer; never once the run has finished.
    private func showProgress(force: Bool = false) {
        guard progress, !finished else { return }
        let now = POSIX.monotonicSeconds()
        guard force || now - lastProgress >= 0.1 else { return }
        lastProgress = now
        let s = summary
        var line = ProgressLine(done: s.total, written: s.converted + s.updated + s.copied, failed: s.failed,
                                elapsed: now - started, current: current)
        if walkFinished {
            line.total = max(expected, s.total)
        } else if let estimatedTotal {
            line.total = max(estimatedTotal, expected, s.total)
            line.totalIsEstimate = true
        }
        let columns = TerminalText.columns(of: STDERR_FILENO) ?? 80
        POSIX.write("\r\u{1B}[K" + line.text(columns: columns), to: STDERR_FILENO)
        progressShown = true
    }

    private func clearProgress() {
        guard progressShown else { return }
        POSIX.write("\r\u{1B}[K", to: STDERR_FILENO)
        progressShown = false
    }
}
