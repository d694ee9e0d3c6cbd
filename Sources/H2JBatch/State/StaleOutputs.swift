import H2JJob
import H2JState
import H2JSupport

/// `--state`: the outputs a source had that its new conversion no longer writes (a
/// collection that became one photo, a switch between `--stereo mpo` and `split`, an
/// `NAME-3.jpg` of a source that now holds two images). Each one still at its path and
/// still holding what was published (its SHA-256 is the recorded one) is removed; one
/// that changed since, or whose digest was never recorded, is kept. Either way a warning
/// names it (one for all those removed, one for each kept, with why), and the new record
/// no longer lists it.
enum StaleOutputs {
    /// `result` (a conversion that published its outputs) with the stale outputs of
    /// `previous`, the source's record before it, removed or kept, each with its warning.
    static func settle(_ previous: SourceRecord, in result: ConversionResult) -> ConversionResult {
        guard [.converted, .updated, .copied].contains(result.status) else { return result }
        let written = Set((result.outputs.isEmpty ? result.output.map { [$0] } ?? [] : result.outputs.map(\.path)).map(Path.absolute))
        var result = result
        var removed: [String] = []
        for output in previous.outputs where !written.contains(output.path) {
            switch UnchangedOutput.remove(output.path, sha256: output.sha256) {
            case .gone: break
            case .removed: removed.append(output.path)
            case .kept(let why):
                result.warnings.append(Warning(.staleOutputKept, "\(output.path), an output \(result.source) no longer has, is kept: \(why)"))
            }
        }
        if !removed.isEmpty {
            let outputs = removed.count == 1 ? "an output" : "\(removed.count) outputs"
            result.warnings.append(Warning(.staleOutputRemoved, "removed \(outputs) \(result.source) no longer has, unchanged since heic2jpg wrote \(removed.count == 1 ? "it" : "them"): \(removed.joined(separator: ", "))"))
        }
        return result
    }
}

extension Warning.Code {
    /// `--state`: an output the source's new conversion no longer writes was removed.
    static let staleOutputRemoved = Warning.Code("stale-output-removed")
    /// `--state`: an output the source's new conversion no longer writes was kept: it
    /// changed since it was written (or could not be told unchanged).
    static let staleOutputKept = Warning.Code("stale-output-kept")
}
