#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JJob
import H2JSupport

/// One file the walker found, with where its output belongs.
package struct Candidate: Sendable, Equatable {
    /// Path of the file as the user will see it (input joined with the relative path).
    package let path: String
    /// The directory its outputs go in: `<root>/<relative dir>` (`OutputNaming` names them).
    package let outputDirectory: String
    /// Named on the command line (then content that is not HEIF is an error, not ignored).
    package let explicit: Bool
    /// The input it was found under (a directory input, or a file input's directory), and
    /// its path relative to that: what the state database records it by.
    package var root: String = "."
    package var relativePath: String = ""
    /// Its size, times and inode, as the walk found them.
    package var info: stat?
    /// Met by a walk, among its directory's files in order (the state reads a directory's
    /// records at once for them); false for a file that came by itself (a watch's).
    package var walked = true

    package static func == (a: Candidate, b: Candidate) -> Bool {
        a.path == b.path && a.outputDirectory == b.outputDirectory && a.explicit == b.explicit && a.root == b.root
            && a.relativePath == b.relativePath
    }
}

/// Why an input argument could not be walked.
package struct WalkError: CodedError, Equatable, Sendable, CustomStringConvertible {
    package let path: String
    package let reason: String
    /// The failed call's errno.
    package let errno: Int32
    /// The report's `errorCode`: from the errno unless said otherwise.
    package let code: ErrorCode
    package var description: String { "\(path): \(reason)" }

    package init(path: String, reason: String, errno: Int32, code: ErrorCode? = nil) {
        self.path = path
        self.reason = reason
        self.errno = errno
        self.code = code ?? ErrorCode(errno: errno, otherwise: .sourceUnreadable)
    }

    /// The failure of the call just made on `path`: `prefix` and `strerror(errno)`.
    static func system(_ path: String, _ prefix: String? = nil) -> WalkError {
        let code = Glibc.errno
        return WalkError(path: path, reason: prefix.map { "\($0): \(POSIX.describe(code))" } ?? POSIX.describe(code), errno: code)
    }

    /// `path` is not a regular file but `mode`'s type (reached through a symlink when
    /// `throughLink`): `not-a-regular-file`, in `SourceError.notRegular`'s words.
    static func notRegular(_ path: String, _ mode: mode_t, throughLink: Bool = false) -> WalkError {
        WalkError(path: path, reason: SourceError.notRegular(mode, throughLink: throughLink).reason, errno: 0,
                  code: .notARegularFile)
    }
}

/// Expands command-line inputs into files, lazily, in a stable order: inputs as given,
/// directory entries sorted by name, depth first.
///
/// Invariants: symlinked directories are never entered; `skipDirectory` (the output root,
/// by device and inode) is never entered; our own temp files are never yielded. Nothing
/// is skipped silently: a subdirectory that cannot be listed, an entry that cannot be
/// examined, and a dangling symlink named like HEIF each come out as a `WalkError`, so
/// the run reports them and fails. Only regular files are yielded, and nothing is
/// opened here (only `stat`), so no FIFO or device can block the walk: an input
/// argument that is neither a directory nor a regular file, and an entry named like
/// HEIF that is neither (a FIFO, a socket, a device, directly or through a symlink; a
/// symlinked directory), fail as `not-a-regular-file`; other special entries are passed
/// over, as files of no image name and content are. A directory is walked whatever its
/// name: `x.heic/` full of photos is a folder, not a broken photo. Memory is one directory listing
/// per level of depth, never the whole tree, and one open descriptor per level: each
/// entry is `stat`ed relative to its directory's (`fstatat`), as `find` does, so the
/// kernel looks up one name, not the whole path, for each.
package final class InputWalker: IteratorProtocol, Sequence {
    /// A directory being listed: its remaining entry names, the output directory it maps
    /// to, its input and its path relative to that, and its descriptor (closed when the
    /// level is left).
    private struct Level {
        let directory: String
        let descriptor: Int32
        let outputDirectory: String
        let root: String
        let relativeDirectory: String
        var names: [String]
    }

    private var inputs: [String]
    private let outputRoot: String?
    private let skipDirectory: (dev_t, ino_t)?
    private var stack: [Level] = []
    /// Told of each directory the walk has finished listing.
    private let onLeave: (FinishedDirectory) -> Void
    /// `--exclude`: entries left out, each told to `onExclude` with the pattern it matched.
    private let excludes: ExcludePatterns
    private let onExclude: (String, String) -> Void

    /// A directory whose entries (subdirectories included) the walk has all yielded.
    package struct FinishedDirectory {
        /// The output directory it maps to.
        package let outputDirectory: String
        /// The directory input it lies in, and its path relative to that ("" for the input).
        package let root: String
        package let relativeDirectory: String
    }

    /// `outputRoot` nil means "next to each source". `onLeave` hears of every walked
    /// directory once all its entries (subdirectories included) are done; `onExclude` of
    /// each entry `excludes` leaves out (its path, the pattern), a directory once.
    package init(inputs: [String], outputRoot: String?, excludes: ExcludePatterns = ExcludePatterns(),
                 onExclude: @escaping (String, String) -> Void = { _, _ in },
                 onLeave: @escaping (FinishedDirectory) -> Void = { _ in }) {
        self.inputs = inputs.reversed()
        self.outputRoot = outputRoot
        self.excludes = excludes
        self.onExclude = onExclude
        self.onLeave = onLeave
        if let outputRoot, let info = POSIX.fileInfo(outputRoot) {
            skipDirectory = (info.st_dev, info.st_ino)
        } else {
            skipDirectory = nil
        }
    }

    deinit {
        for level in stack { close(level.descriptor) }
    }

    /// The next file, or a failure for an input argument that does not exist or cannot be read.
    package func next() -> Result<Candidate, WalkError>? {
        while true {
            if var level = stack.popLast() {
                guard let name = level.names.popLast() else {
                    close(level.descriptor)
                    onLeave(FinishedDirectory(outputDirectory: level.outputDirectory, root: level.root,
                                              relativeDirectory: level.relativeDirectory))
                    continue
                }
                stack.append(level)
                let path = Path.join(level.directory, name)
                if let found = visit(path: path, name: name, in: level) { return found }
                continue
            }
            guard let input = inputs.popLast() else { return nil }
            return visitInput(input) ?? next()
        }
    }

    /// A command-line argument: a file is a candidate, a directory (whatever its name,
    /// `x.heic` too) starts a walk, anything else fails.
    private func visitInput(_ input: String) -> Result<Candidate, WalkError>? {
        guard let info = POSIX.fileInfo(input) else { return .failure(.system(input)) }
        if info.st_mode & S_IFMT == S_IFDIR {
            return push(directory: input, outputDirectory: outputRoot ?? input, root: input, relativeDirectory: "")
                .map { .failure($0) }
        }
        guard FileType.isRegular(info.st_mode) else {
            let throughLink = POSIX.fileInfo(input, followingLinks: false).map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
            return .failure(.notRegular(input, info.st_mode, throughLink: throughLink))
        }
        let name = Path.lastComponent(input)
        let directory = outputRoot ?? Path.parent(input)
        return .success(Candidate(path: input, outputDirectory: directory, explicit: true,
                                  root: Path.parent(input), relativePath: name, info: info))
    }

    /// An entry inside a walked directory: a file, a directory to walk, a failure, or nil
    /// for entries passed over (symlinked directories, special files not named like
    /// HEIF, our temp files).
    private func visit(path: String, name: String, in level: Level) -> Result<Candidate, WalkError>? {
        let outputDirectory = level.outputDirectory
        let relative = level.relativeDirectory.isEmpty ? name : Path.join(level.relativeDirectory, name)
        if let pattern = excludes.match(name: name, relativePath: relative) {
            onExclude(path, pattern)
            return nil
        }
        guard let link = POSIX.fileInfo(in: level.descriptor, name: name, followingLinks: false) else {
            return .failure(.system(path, "cannot examine"))
        }
        // Asked only of entries that are not regular files: most entries are, and need no answer.
        var namedLikeHEIF: Bool { HEIFExtensions.matches(name) }
        var info = link
        if link.st_mode & S_IFMT == S_IFLNK {
            guard let target = POSIX.fileInfo(in: level.descriptor, name: name) else {
                let failure = WalkError.system(path, "symlink to nothing readable")  // errno before anything else
                return namedLikeHEIF ? .failure(failure) : nil
            }
            info = target
            guard FileType.isRegular(info.st_mode) else {
                return namedLikeHEIF ? .failure(.notRegular(path, info.st_mode, throughLink: true)) : nil
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            if let skip = skipDirectory, skip.0 == info.st_dev, skip.1 == info.st_ino { return nil }
            return push(directory: path, outputDirectory: Path.join(outputDirectory, name), root: level.root,
                        relativeDirectory: relative).map { .failure($0) }
        case S_IFREG:
            guard !OutputPublisher.isTempName(name) else { return nil }
            return .success(Candidate(path: path, outputDirectory: outputDirectory, explicit: false,
                                      root: level.root, relativePath: relative, info: info))
        default:
            return namedLikeHEIF ? .failure(.notRegular(path, info.st_mode)) : nil
        }
    }

    /// Lists `directory` (sorted, so runs are reproducible) and pushes it on the stack.
    private func push(directory: String, outputDirectory: String, root: String, relativeDirectory: String) -> WalkError? {
        let names: [String]
        let descriptor = POSIX.openFile(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        do throws(SystemError) {
            guard descriptor >= 0 else { throw SystemError() }
            names = try POSIX.directoryNames(of: descriptor)
        } catch {
            if descriptor >= 0 { close(descriptor) }
            return WalkError(path: directory, reason: "cannot list directory: \(error)", errno: error.errno)
        }
        // Reversed so that popLast yields names in ascending order.
        stack.append(Level(directory: directory, descriptor: descriptor, outputDirectory: outputDirectory, root: root,
                           relativeDirectory: relativeDirectory, names: names.sorted(by: >)))
        return nil
    }
}
