#if canImport(Glibc)
import Glibc
#endif
import H2JDigest
import H2JJPEGCodec
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
///   what the user's own options left out: `--images primary`, `--aux` without a kind);
/// - every output is re-read and decodes whole, without warnings, at the planned size;
/// - every output's SHA-256 is recorded in the state (committed with `synchronous = FULL`);
/// - every output and its directory are fsynced.
/// Then the source is deleted, or moved (mkdir -p mirroring, a rename that never
/// replaces), its directory fsynced, and the hand-off recorded. Any failure keeps the
/// source and says why in a `source-kept` warning.
struct SourceHandOff {
    let action: HandOffAction
    let state: RunState

    /// `result` with its hand-off done (`handOff`) or refused (a warning); `record` is
    /// the state's record of the source as it stands after this run.
    func apply(_ candidate: Candidate, _ record: SourceRecord?, to result: ConversionResult) -> ConversionResult {
        var result = result
        guard [.converted, .updated, .copied, .skipped].contains(result.status) else { return result }
        do {
            if !result.notCarried.isEmpty {
                throw Refusal(description: "it holds what its outputs do not carry: \(result.notCarried.joined(separator: ", "))")
            }
            // What the user's own options left out is named in a warning of its own, and is no reason to keep it.
            // Nor is a warning about another file (an old output it no longer has).
            let warned = result.warnings.filter { $0.code != .contentNotConverted && !Warning.Code.aboutOtherFiles.contains($0.code) }
            if !warned.isEmpty {
                throw Refusal(description: "its conversion warned (\(Set(warned.map(\.code.rawValue)).sorted().joined(separator: ", ")))")
            }
            try handOff(candidate, record)
            result.handOff = action == .delete ? "deleted" : "moved"
        } catch {
            result.warnings.append(Warning(.sourceKept, "source kept: \(error)"))
        }
        return result
    }

    private struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    private func handOff(_ candidate: Candidate, _ record: SourceRecord?) throws {
        let root = state.absolute(candidate.root)
        guard let record, record.status != "failed" else { throw Refusal(description: "it has no recorded outputs") }
        guard record.complete else {
            throw Refusal(description: "its outputs do not carry all of it (strip mode or --strip-gps leave metadata out; an output heic2jpg did not convert in a run with --state was never looked into)")
        }
        guard !record.outputs.isEmpty else { throw Refusal(description: "it has no recorded outputs") }
        for output in record.outputs {
            let file = try SourceFile(path: output.path)
            let bytes = try file.readAll()
            let check = JPEGCheck(bytes)
            if let problem = check.problem { throw Refusal(description: "\(output.path) does not decode cleanly: \(problem)") }
            // The planned size is the primary's; every output's bytes are checked by their digest below.
            if output.kind == "primary", let width = record.width, let height = record.height,
               check.width != width || check.height != height {
                throw Refusal(description: "\(output.path) is \(check.width ?? 0)×\(check.height ?? 0), not the planned \(width)×\(height)")
            }
            let digest = SHA256.hex(SHA256.digest(bytes))
            if let published = output.sha256, published != digest {
                throw Refusal(description: "\(output.path) changed since it was published (SHA-256 \(digest), recorded \(published))")
            }
            guard file.sync() else { throw Refusal(description: "cannot fsync \(output.path): \(POSIX.lastError())") }
            POSIX.syncDirectory(Path.parent(output.path))
            try state.database.recordOutputDigest(root: root, source: candidate.relativePath, output: output.path,
                                                  sha256: digest)
        }
        var destination: String?
        switch action {
        case .delete:
            guard POSIX.removeFile(candidate.path) == 0 else { throw Refusal(description: "cannot delete it: \(POSIX.lastError())") }
        case .move(let directory):
            let target = Path.join(directory, candidate.relativePath)
            try OutputPublisher.makeDirectories(Path.parent(target), mirroring: Path.parent(candidate.path))
            let code = POSIX.renameNoReplace(candidate.path, target)
            guard code == 0 else { throw Refusal(description: "cannot move it to \(target): \(POSIX.describe(code))") }
            POSIX.syncDirectory(Path.parent(target))
            destination = Path.absolute(target)
        }
        POSIX.syncDirectory(Path.parent(candidate.path))
        try state.database.recordHandOff(root: root, source: candidate.relativePath, action: action == .delete ? "deleted" : "moved",
                                         destination: destination, run: state.run)
    }
}

extension Warning.Code {
    /// `--delete-source`/`--move-source` kept the original: the message says why.
    static let sourceKept = Warning.Code("source-kept")
}
