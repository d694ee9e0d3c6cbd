#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// `--files-from FILE|-`: the candidates of a list of paths, one per line (or per NUL
/// with `-0`), relative to `--base` (or absolute under it), read as a stream so a list
/// of millions costs no memory. Each output mirrors its path relative to the base, so
/// `find … -print0 | heic2jpg --files-from - -0 --base DIR -o OUT` keeps the tree.
///
/// Listed files are treated like files met in a walk: HEIF content is converted, a
/// HEIF-named file that is not HEIF fails, and other files are ignored. Listed
/// directories, whatever their name, are passed over (`find` lists each one it walks);
/// any FIFO, socket or device listed (directly or through a symlink) fails as
/// `not-a-regular-file`, found by `stat` alone, never opened. A path that does not
/// exist or is not under the base fails.
package final class FileListWalker: IteratorProtocol, Sequence {
    private let reader: DelimitedReader
    private let base: String
    private let outputRoot: String?
    /// `--exclude`: listed paths left out (under an excluded directory too), each told to
    /// `onExclude` with the pattern it matched.
    private let excludes: ExcludePatterns
    private let onExclude: (String, String) -> Void

    /// `fd` is read to its end (not closed); `base` is the directory paths are relative to.
    package init(fd: Int32, name: String, separator: UInt8, base: String, outputRoot: String?,
                 excludes: ExcludePatterns = ExcludePatterns(), onExclude: @escaping (String, String) -> Void = { _, _ in }) {
        reader = DelimitedReader(fd: fd, name: name, separator: separator)
        self.base = base
        self.outputRoot = outputRoot
        self.excludes = excludes
        self.onExclude = onExclude
    }

    package func next() -> Result<Candidate, WalkError>? {
        while true {
            let line: [UInt8]
            do {
                guard let read = try reader.next() else { return nil }
                line = read
            } catch {
                return .failure(error)
            }
            if line.isEmpty { continue }
            let listed = PathBytes.string(line)
            guard let relative = relativeToBase(listed) else {
                return .failure(WalkError(path: listed, reason: "is not under --base \(base)", errno: 0))
            }
            if relative.isEmpty { continue }  // the base itself (find lists it first)
            let path = Path.join(base, relative)
            if let pattern = excludes.match(relativePath: relative) {
                onExclude(path, pattern)
                continue
            }
            guard let info = POSIX.fileInfo(path) else { return .failure(.system(path)) }
            // `find` lists every directory it walks (`x.heic/` too): passed over.
            if info.st_mode & S_IFMT == S_IFDIR { continue }
            guard FileType.isRegular(info.st_mode) else {
                let throughLink = POSIX.fileInfo(path, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
                return .failure(.notRegular(path, info.st_mode, throughLink: throughLink))
            }
            let directory = Path.parent(relative)
            let outputDirectory = directory == "." ? (outputRoot ?? base) : Path.join(outputRoot ?? base, directory)
            return .success(Candidate(path: path, outputDirectory: outputDirectory, explicit: false,
                                      root: base, relativePath: relative, info: info))
        }
    }

    /// `listed` relative to the base: as it is when relative (`.` components dropped),
    /// the part after the base when absolute; empty for the base itself; nil outside the
    /// base or with `..` in it.
    private func relativeToBase(_ listed: String) -> String? {
        var relative = listed
        if relative.unicodeScalars.first == "/" {
            let prefix = Path.absolute(base)
            let trimmed = prefix.unicodeScalars.last == "/" && prefix.unicodeScalars.count > 1 ? String(prefix.dropLast()) : prefix
            if relative == trimmed || relative == trimmed + "/" { return "" }
            guard relative.hasPrefix(trimmed == "/" ? "/" : trimmed + "/") else { return nil }
            relative = String(relative.unicodeScalars.dropFirst(trimmed.unicodeScalars.count))
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !components.contains("..") else { return nil }
        return components.joined(separator: "/")
    }
}

/// The records of a stream separated by one byte, read 64 KiB at a time.
final class DelimitedReader {
    private let fd: Int32
    private let name: String
    private let separator: UInt8
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    /// Longest record accepted: a path of PATH_MAX × 16 (a runaway list is an error).
    static let maxRecord = 1 << 16

    init(fd: Int32, name: String, separator: UInt8) {
        self.fd = fd
        self.name = name
        self.separator = separator
    }

    /// The next record without its separator; nil at the end.
    func next() throws(WalkError) -> [UInt8]? {
        while true {
            if let end = buffer[start...].firstIndex(of: separator) {
                defer { start = end + 1 }
                return Array(buffer[start..<end])
            }
            if ended {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Array(buffer[start...])
            }
            guard buffer.count - start <= Self.maxRecord else {
                throw WalkError(path: name, reason: "a listed path is longer than \(Self.maxRecord) bytes", errno: 0)
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = POSIX.retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            guard count >= 0 else { throw .system(name, "cannot read the list") }
            if count == 0 { ended = true } else { buffer.append(contentsOf: chunk[0..<count]) }
        }
    }
}
