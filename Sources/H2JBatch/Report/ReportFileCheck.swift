#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// The `--report` path must never destroy a photo or a file of the user's: it may name
/// nothing yet, an empty file, or an earlier heic2jpg report (which it replaces), but
/// not an input, nor any other existing file.
package enum ReportFileCheck {
    /// The first bytes of every report line (`Reporter.json`): a result or the summary.
    static let linePrefixes = [Array(#"{"source":"#.utf8), Array(#"{"summary":"#.utf8)]

    /// Why `path` must not be the report of a run over `inputs`; nil when it may.
    package static func refusal(_ path: String, inputs: [String]) -> String? {
        guard let info = POSIX.fileInfo(path) else { return nil }
        if isInput(info, inputs) { return "the report '\(path)' is also an input; it would overwrite it" }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        guard let file = try? SourceFile(path: path), let head = try? file.prefix(16),
              linePrefixes.contains(where: { head.starts(with: $0) }) else {
            return "'\(path)' exists and is not a heic2jpg report; refusing to overwrite it"
        }
        return nil
    }

    /// Whether the file `info` describes is one of `inputs` (same device and inode).
    static func isInput(_ info: stat, _ inputs: [String]) -> Bool {
        inputs.contains { input in
            guard let other = POSIX.fileInfo(input) else { return false }
            return other.st_dev == info.st_dev && other.st_ino == info.st_ino
        }
    }
}
