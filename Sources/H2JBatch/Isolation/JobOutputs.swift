#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JOutputPlan
import H2JSupport

/// The parent's side of one job's outputs: each is staged (a complete temp file, or for
/// `-` copied to the stream once complete) as the worker writes it, and once the
/// worker's result says the source converted, all of them are published: the other
/// images first and the primary last, so that a run killed between two renames leaves
/// the primary missing and the next run converts the source again (its other images,
/// found to be its own, are then replaced). Otherwise all are removed.
///
/// The primary goes where the planner decided (its reservation, `replacesExisting`).
/// Another image's path was known only now: a file already there is replaced only when
/// it is this source's own (`OutputOwnership`, the state's record included); anything else fails the source, or with
/// `--on-conflict suffix` the output moves to the first free `NAME-2-N.jpg`. With
/// `--on-conflict suffix`, a file that appears at any output's path while the source
/// converts moves that output to its first free `-N` name at publish time (the
/// publisher's `suffixing`); the result names the paths as published.
///
/// Invariant: every staged file is published or removed before the job ends
/// (`discardAll`, which the supervisor runs whatever happens).
final class JobOutputs {
    private let destination: PublishedOutput
    private let job: Job
    private let options: ConversionOptions
    private var staged: [(name: OutputName, output: Staged)] = []
    /// The source's times, from the parent's `fstat` of the source (the ownership of a
    /// file found at another image's path is judged by them too).
    private var sourceTimes: FileTimes?

    private enum Staged {
        case file(StagedFile)
        case streamed(WrittenOutput)
    }

    init(destination: PublishedOutput, job: Job, options: ConversionOptions) {
        self.destination = destination
        self.job = job
        self.options = options
    }

    /// Stages output `name`: `body` gets the temp file's descriptor, hands it to the
    /// worker and returns once the worker has written the file.
    func stage(_ name: OutputName, attributes: OutputAttributes?, _ body: (Int32) throws -> Void) throws {
        guard !staged.contains(where: { $0.name == name }), staged.count < ConversionResult.maxOutputs else {
            throw WriteError(path: job.output.display, reason: "the decoder asked for output '\(name.suffix)' twice, or too many")
        }
        sourceTimes = sourceTimes ?? attributes?.times
        if name == .primary { TestPause.reach(.converting, source: job.source.display) }
        switch job.output {
        case .path:
            let file = try destination.publisher.stage(job.conversion.path(of: name), attributes: attributes, body)
            staged.append((name, .file(file)))
            if name == .primary { TestPause.reach(.staged, source: job.source.display) }
        case .standardStream:
            guard name == .primary else { throw WriteError(path: "-", reason: "standard output takes one image") }
            staged.append((name, .streamed(try StagedStreamWriter.write(to: destination.standardOutput, body))))
        }
    }

    /// Publishes every staged output, the primary last, and fills in `result`'s
    /// outputs (their paths as published, sizes and digests). Where each other output
    /// goes is settled first, for all of them, so a foreign file at one of their paths
    /// publishes nothing of the source. On an error, what was not published yet is
    /// removed; what was stays (complete, and this source's own): only a file appearing
    /// in the moment between settling and renaming, or a failing rename, leaves that.
    func publishAll(into result: inout ConversionResult) throws {
        // The worker's list of outputs names only files it wrote here, each once: a path it
        // names for any other would otherwise be recorded as this source's own.
        let names = result.outputs.map(\.name)
        guard Set(names).count == names.count, names.allSatisfy({ name in staged.contains { $0.name == name } }) else {
            throw WriteError(path: job.output.display, reason: "the decoder listed an output it did not write")
        }
        let others = try staged.filter { $0.name != .primary }.map { entry -> (OutputName, Staged, Bool) in
            guard case .file(let file) = entry.output else { return (entry.name, entry.output, false) }
            let (target, replacing) = try target(of: file)
            return (entry.name, .file(target), replacing)
        }
        let primary = staged.filter { $0.name == .primary }.map { ($0.name, $0.output, job.replacesExisting) }
        for (name, output, replacing) in others + primary {
            staged.removeAll { $0.name == name }
            let (path, written): (String, WrittenOutput)
            switch output {
            case .streamed(let streamed): (path, written) = ("-", streamed)
            case .file(let file):
                let reservation = name == .primary ? job.reservation : nil
                do {
                    (path, written) = try destination.publisher.publish(file, for: job.source.display, reservation: reservation,
                                                                        replacing: replacing, suffixing: options.onConflict == .suffix)
                } catch {
                    discardAll()
                    throw error
                }
            }
            if let index = result.outputs.firstIndex(where: { $0.name == name }) {
                result.outputs[index].path = path
                result.outputs[index].bytes = written.bytes
                result.outputs[index].sha256 = written.sha256
            }
            if name == .primary {
                result.output = path
                result.bytes = written.bytes
                result.outputSHA256 = written.sha256
            }
        }
    }

    /// Removes whatever is still staged.
    func discardAll() {
        for case (_, .file(let file)) in staged { destination.publisher.discard(file) }
        staged.removeAll()
    }

    /// Where another image's staged file is to be published, and whether it replaces
    /// what is there, by the planner's rule (`OutputPolicy`): its own path when free or
    /// this source's own; with `--on-conflict suffix` the first `NAME-2-N.jpg` that is;
    /// otherwise the source fails (`ForeignOutputError`, or the policy's refusal).
    private func target(of file: StagedFile) throws -> (StagedFile, replacing: Bool) {
        let policy = OutputPolicy(publisher: destination.publisher)
        // Whether an existing output is this source's decides what is replaced: by the
        // parent's own digest of the source (`Job.digested`), never the worker's word.
        let digest = { [job] in job.sourceSHA256 }
        let ownership = OutputPolicy.Ownership(name: job.source.fileName, times: sourceTimes, digest: digest, markExpected: options.mark,
                                               recorded: { [recorded = job.recordedOutputs] in recorded.contains(Path.absolute($0)) })
        switch policy.verdict(file.path, source: job.file, ownership: ownership) {
        case .free: return (file, false)
        case .ours: return (file, true)
        case .refused(let code, let reason): throw OutputRefusal(code: code, description: reason)
        case .foreign: break
        }
        guard options.onConflict == .suffix else { throw policy.foreign(file.path) }
        for candidate in policy.suffixes(of: file.path) {
            switch policy.verdict(candidate, source: job.file, ownership: ownership) {
            case .free: return (file.retargeted(to: candidate), false)
            case .ours: return (file.retargeted(to: candidate), true)
            case .foreign, .refused: continue
            }
        }
        throw ForeignOutputError(output: file.path, suffixesTaken: true)
    }
}
