#if canImport(Glibc)
import Glibc
#endif

/// An input file opened for reading: descriptor, size, times and identity.
/// The descriptor is closed on deinit. Immutable, so a job can carry it to the thread
/// that hands its descriptor to a worker process.
package final class SourceFile: Sendable {
    package let path: String
    let fd: Int32
    package let info: stat

    /// Opens `path` read-only; the error text names the cause (errno).
    package init(path: String) throws(SourceError) {
        let fd = POSIX.openFile(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SourceError(reason: "cannot open: \(POSIX.lastError())", errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw SourceError(reason: "cannot stat: \(POSIX.describe(code))", errno: code)
        }
        self.path = path
        self.fd = fd
        self.info = info
    }

    /// Takes over `fd`, a descriptor of `path` that was opened elsewhere (a worker gets
    /// its source this way from the parent); it is closed on deinit, or here on failure.
    package init(adopting fd: Int32, path: String) throws(SourceError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw SourceError(reason: "cannot stat: \(POSIX.describe(code))", errno: code)
        }
        self.path = path
        self.fd = fd
        self.info = info
    }

    deinit { close(fd) }

    /// The descriptor, to pass to another process (it stays owned by this file).
    package var descriptor: Int32 { fd }

    package var size: Int { Int(info.st_size) }
    package var byteSource: FileByteSource { FileByteSource(fd: fd, size: size) }
    /// Access and modification times, copied onto the output.
    package var times: FileTimes { (info.st_atim, info.st_mtim) }

    /// Up to `count` bytes from the start (fewer for a short file).
    package func prefix(_ count: Int) throws(SourceError) -> [UInt8] {
        do {
            return try byteSource.read(at: 0, count: min(count, size))
        } catch {
            throw SourceError(reason: "cannot read: \(error)", errno: error.errno)
        }
    }

    /// `fsync` of the file; false with errno when it failed.
    package func sync() -> Bool { fsync(fd) == 0 }

    /// The whole file.
    package func readAll() throws(SourceError) -> [UInt8] {
        try prefix(size)
    }

    /// True when `other` names this same file (device and inode).
    package func isSameFile(as other: String) -> Bool {
        guard let otherInfo = POSIX.fileInfo(other) else { return false }
        return otherInfo.st_dev == info.st_dev && otherInfo.st_ino == info.st_ino
    }
}

/// A source's access and modification times, which its output gets too.
package typealias FileTimes = (access: timespec, modification: timespec)

/// Why a source file could not be read; `errno` is kept when a system call failed, so
/// callers can tell "too many open files" from a file that is unreadable.
package struct SourceError: Error, CustomStringConvertible {
    package let reason: String
    package let errno: Int32?

    package init(reason: String, errno: Int32? = nil) {
        self.reason = reason
        self.errno = errno
    }

    package var description: String { reason }
}
