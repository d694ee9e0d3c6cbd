import H2JSupport

/// Counts of a run by status, and its wall time.
package struct RunSummary: Sendable, Equatable {
    package var converted = 0
    package var copied = 0
    package var skipped = 0
    package var planned = 0
    package var failed = 0
    package var seconds = 0.0
    /// Temp files of killed runs that this run removed (`OutputPublisher` sweeps).
    package var tempFilesRemoved = 0
    /// Why the `--report` could not be written in full, if it could not.
    package var reportError: WriteError?
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
        }
    }

    package var total: Int { converted + copied + skipped + planned + failed }

    /// Images written per second of wall time.
    package var imagesPerSecond: Double { seconds > 0 ? Double(converted + copied) / seconds : 0 }

    /// The one line printed at the end of every run.
    package var line: String {
        var parts = ["\(converted) converted", "\(copied) copied", "\(skipped) skipped", "\(failed) failed"]
        if planned > 0 { parts.insert("\(planned) planned (dry run)", at: 0) }
        return "heic2jpg: " + parts.joined(separator: ", ")
            + " in " + Self.format(seconds, digits: 2) + " s (" + Self.format(imagesPerSecond, digits: 2) + " images/s)"
            + (tempFilesRemoved > 0 ? "; removed \(tempFilesRemoved) temp file\(tempFilesRemoved == 1 ? "" : "s") left by killed runs" : "")
            + (stoppedBy.map { "\nheic2jpg: stopped before the end, files not started were left for a rerun: \($0)" } ?? "")
    }

    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        let fractionText = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}
