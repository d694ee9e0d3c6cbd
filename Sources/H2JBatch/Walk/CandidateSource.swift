#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// Where a run's candidates come from, one after another: the walk of the inputs
/// (`InputWalker`) or a `--files-from` list (`ListedCandidates`). `RunSession` takes each
/// in turn; a source of another kind (a watch of directories) plugs in here.
protocol CandidateSource: AnyObject {
    /// The next candidate, or why one could not be taken; nil when there are no more.
    func next() -> Result<Candidate, WalkError>?
}

extension InputWalker: CandidateSource {}

/// The candidates a `--files-from` list names (`FileListWalker`), with the list's
/// descriptor, closed with this (never stdin's).
final class ListedCandidates: CandidateSource {
    private let fd: Int32
    private let walker: FileListWalker

    /// Opens `list` (stdin for `-`); nil with errno when it cannot be opened.
    init?(_ list: Endpoint, separator: UInt8, base: String, outputRoot: String?, excludes: ExcludePatterns,
          onExclude: @escaping (String, String) -> Void) {
        fd = list == .standardStream ? STDIN_FILENO : POSIX.openFile(list.display, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        walker = FileListWalker(fd: fd, name: list.display, separator: separator, base: base, outputRoot: outputRoot,
                                excludes: excludes, onExclude: onExclude)
    }

    deinit { if fd != STDIN_FILENO { close(fd) } }

    func next() -> Result<Candidate, WalkError>? { walker.next() }
}
