#if canImport(Glibc)
import Glibc
#endif

/// The one place a path meets the kernel: every system call on a path goes through
/// `POSIX.at`, which hands the kernel the path's exact bytes (`PathBytes`, never a
/// UTF-8 "repair") and reaches paths of any length.
///
/// A path shorter than `maxPiece` goes as it is, relative to the working directory. A
/// longer one (a tree deeper than PATH_MAX, 4096 bytes) is reached piece by piece: each
/// piece of at most `maxPiece` bytes, cut at a `/`, is opened with `openat(O_PATH)` from
/// the one before, and the call is made with the `*at` variant on the last directory
/// and the last component. Symlinks in the pieces are followed as a whole path's would be.
extension POSIX {
    /// Longest path given to the kernel in one piece (PATH_MAX is 4096, NUL included).
    static let maxPiece = 4000
    /// Linux's O_PATH (a descriptor for walking, not reading), which Glibc declares only
    /// under `_GNU_SOURCE`; the same value on every Linux architecture Swift supports.
    static let O_PATH: Int32 = 0o10000000

    /// Runs `body` with a directory descriptor and a NUL-terminated name standing for
    /// `path`. When a piece of a long path cannot be opened, `body` is not run, errno
    /// says why, and `failure` is returned. errno after `body` is body's.
    package static func at<R>(_ path: String, failure: R, _ body: (Int32, UnsafePointer<CChar>) -> R) -> R {
        let bytes = PathBytes.bytes(path)
        if bytes.count < maxPiece { return withCString(bytes) { body(AT_FDCWD, $0) } }
        var end = bytes.count
        while end > 1 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) ?? 0
        let name = Array(bytes[(slash + 1)..<end])
        var directory: Int32 = AT_FDCWD
        var start = 0
        if bytes.first == UInt8(ascii: "/") {
            directory = Glibc.open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
            start = 1
        }
        func closeDirectory() { if directory != AT_FDCWD { Glibc.close(directory) } }
        while start < slash {
            var cut = min(slash, start + maxPiece)
            if cut < slash { cut = bytes[start..<cut].lastIndex(of: UInt8(ascii: "/")) ?? cut }
            guard cut > start else {
                closeDirectory()
                errno = ENAMETOOLONG
                return failure
            }
            let next = withCString(Array(bytes[start..<cut])) { Glibc.openat(directory, $0, O_PATH | O_DIRECTORY | O_CLOEXEC) }
            let code = errno
            closeDirectory()
            guard next >= 0 else {
                errno = code
                return failure
            }
            directory = next
            start = cut + 1
        }
        let result = withCString(name.isEmpty ? Array(".".utf8) : name) { body(directory, $0) }
        let code = errno
        closeDirectory()
        errno = code
        return result
    }

    private static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// A name's bytes (`PathBytes`) as a C string for `body`: the text's own UTF-8, with
    /// nothing allocated, unless it escapes a byte (`PathBytes.isOwnUTF8`). The walk
    /// examines every entry by name.
    private static func withCString<R>(name: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        PathBytes.isOwnUTF8(name) ? name.withCString(body) : withCString(PathBytes.bytes(name), body)
    }

    /// `open(2)`; a descriptor, or -1 with errno.
    package static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        at(path, failure: -1) { Glibc.openat($0, $1, flags, mode) }
    }

    /// `stat(2)`, or `lstat(2)` when not following a final symlink; nil with errno.
    package static func fileInfo(_ path: String, followingLinks: Bool = true) -> stat? {
        var info = stat()
        let code = at(path, failure: -1) { fstatat($0, $1, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        return code == 0 ? info : nil
    }

    /// `fstatat(2)` of the entry `name` of the directory open as `directory`: one
    /// component for the kernel to look up, where a path has all of its own. nil with errno.
    package static func fileInfo(in directory: Int32, name: String, followingLinks: Bool = true) -> stat? {
        var info = stat()
        let code = withCString(name: name) { fstatat(directory, $0, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        return code == 0 ? info : nil
    }

    /// `mkdir(2)`: 0, or -1 with errno.
    package static func makeDirectory(_ path: String, _ mode: mode_t) -> Int32 {
        at(path, failure: -1) { mkdirat($0, $1, mode) }
    }

    /// `unlink(2)`: 0, or -1 with errno.
    package static func removeFile(_ path: String) -> Int32 {
        at(path, failure: -1) { unlinkat($0, $1, 0) }
    }

    /// `chmod(2)` and, when `owner` is given, `chown(2)`: 0, or -1 with errno.
    package static func setMode(_ path: String, _ mode: mode_t, owner: (uid_t, gid_t)? = nil) -> Int32 {
        at(path, failure: -1) { directory, name in
            guard fchmodat(directory, name, mode, 0) == 0 else { return -1 }
            guard let owner else { return 0 }
            return fchownat(directory, name, owner.0, owner.1, 0)
        }
    }

    /// `rename(2)`, replacing whatever is at `to`: 0, or -1 with errno.
    package static func renameReplacing(_ from: String, _ to: String) -> Int32 {
        at(from, failure: -1) { fromDirectory, fromName in
            at(to, failure: -1) { renameat(fromDirectory, fromName, $0, $1) }
        }
    }

    /// `link(2)`: 0, or -1 with errno.
    static func hardLink(_ from: String, _ to: String) -> Int32 {
        at(from, failure: -1) { fromDirectory, fromName in
            at(to, failure: -1) { linkat(fromDirectory, fromName, $0, $1, 0) }
        }
    }

    /// The whole file at `path` (small files: `/proc` entries), its descriptor closed
    /// again; nil when it cannot be opened or read.
    package static func readFile(_ path: String) -> [UInt8]? {
        let fd = openFile(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try? readToEnd(fd)
    }

    /// `fsync` of a directory, so the entries just made in it are durable; failures are
    /// harmless to callers (the files themselves are synced).
    package static func syncDirectory(_ path: String) {
        let fd = openFile(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Whether the file system holding `path` (or, when it does not exist, its directory)
    /// is mounted read-only (`fstatvfs`'s `ST_RDONLY`).
    package static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var fd = openFile(path, O_PATH | O_CLOEXEC)
        if fd < 0 { fd = openFile(Path.parent(path), O_PATH | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = statvfs()
        return fstatvfs(fd, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// `realpath(3)` (for paths up to PATH_MAX, which is what command-line inputs are).
    package static func realPath(_ path: String) -> String? {
        let resolved = withCString(PathBytes.bytes(path)) { realpath($0, nil) }
        guard let resolved else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }
}
