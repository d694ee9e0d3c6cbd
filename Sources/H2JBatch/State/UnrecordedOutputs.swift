import H2JJob
import H2JSupport

/// The outputs a job published for a source whose result the state then could not
/// record: each still as published is removed again, so none stays published without a
/// record, and the source is reported failed with the state's error.
enum UnrecordedOutputs {
    /// `result` failed by `error`, the outputs it published withdrawn; one that changed
    /// since it was published is kept, and named with why.
    static func withdraw(_ result: ConversionResult, because error: any Error) -> ConversionResult {
        guard [.converted, .updated, .copied].contains(result.status) else { return result }
        let published = result.outputs.isEmpty
            ? result.output.map { [($0, result.outputSHA256)] } ?? []
            : result.outputs.map { ($0.path, $0.sha256) }
        var kept: [String] = []
        for (path, sha256) in published where path != "-" {
            if case .kept(let why) = UnchangedOutput.remove(path, sha256: sha256) { kept.append("\(path) is kept: \(why)") }
        }
        var failed = result
        failed.status = .failed
        failed.errorCode = ErrorCode(classifying: error)
        failed.reason = "the state cannot record its result, so its outputs were removed again: \(error)"
            + (kept.isEmpty ? "" : "; " + kept.joined(separator: "; "))
        failed.outputs = []
        failed.handOff = nil
        return failed
    }
}
