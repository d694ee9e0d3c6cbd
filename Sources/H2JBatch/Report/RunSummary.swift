import H2JJob
import H2JSupport

/// Counts of a run by status, and its wall time.
package struct RunSummary: Sendable, Equatable {
    package var converted = 0
    /// Why the run's tile decoder was taken, when `--decoder auto` chose it.
    package var decoderReason: String?
    /// `--state`: changed sources converted again.
    package var updated = 0
    package var copied = 0
    package var skipped = 0
    package var planned = 0
    package var failed = 0
    /// `--state`: recorded sources that are gone.
    package var missingSources = 0
    /// `--delete-source`/`--move-source`: sources the hand-off kept (`source-kept`,
    /// `source-changed`), whatever their status.
    package var kept = 0
    package var seconds = 0.0
    /// Temp files of killed runs that this run removed (`OutputPublisher` sweeps).
    package var tempFilesRemoved = 0
    /// Why the `--report` could not be written in full, if it could not.
    package var reportError: WriteError?
    /// The first state database failure during the run, if any (the run then fails).
    package var stateError: String?
    /// Why the run could not start: its `--state` or `--report` could not be created,
    /// opened or locked, for another reason than a resource that ran out. Nothing was
    /// done; the exit code is 73 (EX_CANTCREAT), which no retry of the same command mends.
    package var cannotStart: String?
    /// The signal that ended the run (`SIGINT`, `SIGTERM`…), in the summary written as it
    /// ended; nil for a run that finished.
    package var interruptedBy: String?
    /// Why the run stopped starting files before the end (a resource ran out: the first
    /// such failure's reason); the exit code is then 75.
    package var stoppedBy: String?

    package init() {}

    package mutating func count(_ status: ConversionResult.Status) {
        switch status {
        case .converted: converted += 1
        case .copied: copied += 1
        case .skipped: skipped += 1
        case .planned: planned += 1
        case .failed: failed += 1
        case .updated: updated += 1
        case .missingSource: missingSources += 1
        }
    }

    /// The run's exit status (docs/exit-codes.md): 0; 1 when an input failed or the
    /// report could not be written; 73 when the run could not start (`cannotStart`); 75
    /// (EX_TEMPFAIL) when the run stopped because a resource ran out, or the report could
    /// not be written for such a reason.
    package var exitStatus: Int32 {
        if stoppedBy != nil { return 75 }
        if cannotStart != nil { return 73 }
        if let reportError {
            return ErrorCode(errno: reportError.errno, otherwise: .writeFailed).isExhaustion ? 75 : 1
        }
        return failed > 0 || stateError != nil ? 1 : 0
    }

    package var total: Int { converted + updated + copied + skipped + planned + failed + missingSources }

    /// Images written per second of wall time.
    package var imagesPerSecond: Double { seconds > 0 ? Double(converted + updated + copied) / seconds : 0 }

    /// The one line printed at the end of every run.
    package var line: String {
        var parts = ["\(converted) converted", "\(copied) copied", "\(skipped) skipped", "\(failed) failed"]
        if planned > 0 { parts.insert("\(planned) planned (dry run)", at: 0) }
        if updated > 0 { parts.insert("\(updated) updated", at: 1) }
        if missingSources > 0 { parts.append("\(missingSources) missing (outputs kept)") }
        if kept > 0 { parts.append("\(kept) kept (not handed off)") }
        return "heic2jpg: " + parts.joined(separator: ", ")
            + " in " + Self.format(seconds, digits: 2) + " s (" + Self.format(imagesPerSecond, digits: 2) + " images/s)"
            + (tempFilesRemoved > 0 ? "; removed \(tempFilesRemoved) temp file\(tempFilesRemoved == 1 ? "" : "s") left by killed runs" : "")
            + (stoppedBy.map { "\nheic2jpg: stopped before the end, files not started were left for a rerun: \($0)" } ?? "")
    }

    package static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        let fractionText = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}
