#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JDigest
import H2JState
import H2JSupport

/// `--delete-source` / `--move-source DIR`: what may happen to an original once its
/// conversion is verified.
package enum HandOffAction: Sendable, Equatable {
    case delete
    /// Move under this directory, mirroring the source's path below its input.
    case move(to: String)
}

/// The verified hand-off of one source. Nothing happens to it unless, in this order:
/// - its state record says its outputs carry all of it (no warning, nothing left out but
///   what the user's own options left out: `--images primary`, `--aux` without a kind),
///   and holds the SHA-256 of the bytes converted and the identity the conversion saw;
/// - every output is re-read and decodes whole, without warnings, at the planned size
///   (decoded in a worker: `WorkerSupervisor.check`);
/// - every output's SHA-256 is recorded in the state (committed with `synchronous = FULL`);
/// - every output and its directory are fsynced;
/// - the file at the source's name is proved to be the one converted (`ProvedSource`).
/// Then exactly that inode is deleted, or moved (mkdir -p mirroring, never replacing;
/// copied and verified across file systems), its directory fsynced, and the hand-off
/// recorded. Any failure keeps the source, says why in a `source-kept` warning (a source
/// that is not the file converted: `source-changed`, and the next run converts it again)
/// and records why in the state.
struct SourceHandOff {
    let action: HandOffAction
    let state: RunState
    /// Decodes an output in full where no decoder meets this process: a worker.
    let workers: WorkerSupervisor

    /// `result` with its hand-off done (`handOff`) or refused (a warning); `record` is
    /// the state's record of the source as it stands after this run.
    func apply(_ candidate: Candidate, _ record: SourceRecord?, to result: ConversionResult) -> ConversionResult {
        var result = result
        guard [.converted, .updated, .copied, .skipped].contains(result.status) else { return result }
        let kept: Warning
        do {
            if !result.notCarried.isEmpty {
                throw HandOffRefusal(description: "it holds what its outputs do not carry: \(result.notCarried.joined(separator: ", "))")
            }
            // Warnings that leave nothing of the source out are no reason to keep it.
            let warned = result.warnings.filter { !Warning.Code.nothingLeftOut.contains($0.code) }
            if !warned.isEmpty {
                throw HandOffRefusal(description: "its conversion warned (\(Set(warned.map(\.code.rawValue)).sorted().joined(separator: ", ")))")
            }
            try handOff(candidate, record)
            result.handOff = action == .delete ? "deleted" : "moved"
            return result
        } catch let unrecorded as UnrecordedHandOff {
            // Done, but not recorded: the next run reports it `missing-source`, its outputs kept.
            result.handOff = action == .delete ? "deleted" : "moved"
            result.warnings.append(Warning(.handOffUnrecorded, "the source was handed off, but the state could not record it: \(unrecorded.error)"))
            return result
        } catch let changed as SourceChanged {
            kept = Warning(.sourceChanged, "source kept: \(changed)")
        } catch {
            kept = Warning(.sourceKept, "source kept: \(error)")
        }
        result.warnings.append(kept)
        do {
            try state.database.recordKept(root: state.absolute(candidate.root), source: candidate.relativePath,
                                          reason: String(kept.message.dropFirst("source kept: ".count)),
                                          changed: kept.code == .sourceChanged)
        } catch {
            result.warnings.append(Warning(.sourceKept, "the state could not record why the source was kept: \(error)"))
        }
        return result
    }

    private func handOff(_ candidate: Candidate, _ record: SourceRecord?) throws {
        let root = state.absolute(candidate.root)
        guard let record, record.status != "failed" else { throw HandOffRefusal(description: "it has no recorded outputs") }
        guard record.complete else {
            throw HandOffRefusal(description: "its outputs do not carry all of it (strip mode or --strip-gps leave metadata out; an output heic2jpg did not convert in a run with --state was never looked into)")
        }
        guard !record.outputs.isEmpty else { throw HandOffRefusal(description: "it has no recorded outputs") }
        guard let sha256 = record.sha256 else {
            throw HandOffRefusal(description: "no SHA-256 of the source is recorded, so nothing proves the file at its name is the one converted")
        }
        guard let ctime = record.ctimeNanoseconds else {
            throw HandOffRefusal(description: "its record has no ctime to prove it unchanged by (a state of an older heic2jpg); the next hand-off run converts it again")
        }
        let converted = SourceIdentity(device: record.identity.device, inode: record.identity.inode, size: record.identity.size,
                                       mtimeNanoseconds: record.identity.mtimeNanoseconds, ctimeNanoseconds: ctime)
        for output in record.outputs {
            let file = try SourceFile(path: output.path)
            let bytes = try file.readAll()
            let check = workers.check(file)
            if let problem = check.problem { throw HandOffRefusal(description: "\(output.path) does not decode cleanly: \(problem)") }
            // The planned size is the primary's; every output's bytes are checked by their digest below.
            if output.kind == "primary", let width = record.width, let height = record.height,
               check.width != width || check.height != height {
                throw HandOffRefusal(description: "\(output.path) is \(check.width ?? 0)×\(check.height ?? 0), not the planned \(width)×\(height)")
            }
            let digest = SHA256.hex(SHA256.digest(bytes))
            if let published = output.sha256, published != digest {
                throw HandOffRefusal(description: "\(output.path) changed since it was published (SHA-256 \(digest), recorded \(published))")
            }
            guard file.sync() else { throw HandOffRefusal(description: "cannot fsync \(output.path): \(POSIX.lastError())") }
            POSIX.syncDirectory(Path.parent(output.path))
            try state.database.recordOutputDigest(root: root, source: candidate.relativePath, output: output.path,
                                                  sha256: digest)
        }
        TestPause.reach(.handingOff, source: candidate.path)
        let source = try ProvedSource.prove(candidate.path, converted: converted, sha256: sha256)
        var destination: String?
        switch action {
        case .delete:
            try source.delete()
        case .move(let directory):
            let target = Path.join(directory, candidate.relativePath)
            try OutputPublisher.makeDirectories(Path.parent(target), mirroring: Path.parent(candidate.path))
            try source.move(to: target, sha256: sha256)
            POSIX.syncDirectory(Path.parent(target))
            destination = Path.absolute(target)
        }
        POSIX.syncDirectory(Path.parent(candidate.path))
        do {
            try state.database.recordHandOff(root: root, source: candidate.relativePath, action: action == .delete ? "deleted" : "moved",
                                             destination: destination, run: state.run)
        } catch {
            throw UnrecordedHandOff(error: error)
        }
    }

    /// The source is gone (deleted or moved) but the state could not record it.
    private struct UnrecordedHandOff: Error {
        let error: StateError
    }
}

extension Warning.Code {
    /// `--delete-source`/`--move-source` kept the original: the message says why.
    static let sourceKept = Warning.Code("source-kept")
    /// The hand-off kept the original because it is not the file converted (replaced,
    /// rewritten or touched since): the next run converts it again.
    static let sourceChanged = Warning.Code("source-changed")
    /// The source was handed off, but the state could not record it (the next run then
    /// reports it `missing-source`, its outputs kept).
    static let handOffUnrecorded = Warning.Code("hand-off-unrecorded")
}
