#if canImport(Glibc)
import Glibc
#endif
import H2JConvert
import H2JDigest
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
            switch settle(output, source: result.source) {
            case .gone: break
            case .removed: removed.append(output.path)
            case .kept(let warning): result.warnings.append(warning)
            }
        }
        if !removed.isEmpty {
            let outputs = removed.count == 1 ? "an output" : "\(removed.count) outputs"
            result.warnings.append(Warning(.staleOutputRemoved, "removed \(outputs) \(result.source) no longer has, unchanged since heic2jpg wrote \(removed.count == 1 ? "it" : "them"): \(removed.joined(separator: ", "))"))
        }
        return result
    }

    private enum Outcome {
        /// Nothing is at its path any more.
        case gone
        case removed
        case kept(Warning)
    }

    /// Removes `output` if it is unchanged.
    private static func settle(_ output: OutputRecord, source: String) -> Outcome {
        guard let found = POSIX.fileInfo(output.path, followingLinks: false) else { return .gone }
        func kept(_ why: String) -> Outcome {
            .kept(Warning(.staleOutputKept, "\(output.path), an output \(source) no longer has, is kept: \(why)"))
        }
        guard found.st_mode & S_IFMT == S_IFREG else { return kept("it is no longer a regular file") }
        guard let recorded = output.sha256 else { return kept("its SHA-256 was never recorded, so it cannot be told unchanged") }
        let digest: String
        do {
            let file = try SourceFile(path: output.path)
            guard file.info.st_dev == found.st_dev, file.info.st_ino == found.st_ino else { return kept("it was replaced while it was read") }
            digest = try SourceDigest.hex(of: file.byteSource)
        } catch {
            return kept("\(error)")
        }
        guard digest == recorded else { return kept("it was modified since heic2jpg wrote it (its SHA-256 is not the one recorded)") }
        // The very file hashed, still at its path, is the one removed.
        guard let now = POSIX.fileInfo(output.path, followingLinks: false), now.st_dev == found.st_dev, now.st_ino == found.st_ino
        else { return kept("it was replaced while it was read") }
        guard POSIX.removeFile(output.path) == 0 else { return kept("it cannot be removed: \(POSIX.lastError())") }
        POSIX.syncDirectory(Path.parent(output.path))
        return .removed
    }
}

extension Warning.Code {
    /// `--state`: an output the source's new conversion no longer writes was removed.
    static let staleOutputRemoved = Warning.Code("stale-output-removed")
    /// `--state`: an output the source's new conversion no longer writes was kept: it
    /// changed since it was written (or could not be told unchanged).
    static let staleOutputKept = Warning.Code("stale-output-kept")
}
