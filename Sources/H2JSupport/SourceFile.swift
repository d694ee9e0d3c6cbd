#if canImport(Glibc)
import Glibc
#endif

/// An input file opened for reading: descriptor, size, times and identity.
/// The descriptor is closed on deinit. Immutable, so a job can carry it to the thread
/// that hands its descriptor to a worker process.
///
/// Only a regular file is kept: the open cannot block (`O_NONBLOCK`, so a FIFO with no
/// writer or a device returns at once; `O_NOCTTY`), and `fstat` on the descriptor
/// refuses anything else (`SourceError.notRegular`) before a byte is read. The flag is
/// then cleared, so reads behave as on any regular file.
package final class SourceFile: Sendable {
    package let path: String
    let fd: Int32
    package let info: stat

    /// Opens `path` read-only; the error text names the cause (errno, or the type of a
    /// file that is not regular).
    package init(path: String) throws(SourceError) {
        let fd = POSIX.openFile(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            // A socket cannot be opened at all (ENXIO): say what it is.
            if let info = POSIX.fileInfo(path), !FileType.isRegular(info.st_mode) { throw .notRegular(info.st_mode) }
            throw SourceError(reason: "cannot open: \(POSIX.describe(code))", errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw SourceError(reason: "cannot stat: \(POSIX.describe(code))", errno: code)
        }
        guard FileType.isRegular(info.st_mode) else {
            close(fd)
            throw .notRegular(info.st_mode)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
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
/// callers can tell "too many open files" from a file that is unreadable, and
/// `fileType` when the path is not a regular file.
package struct SourceError: Error, CustomStringConvertible {
    package let reason: String
    package let errno: Int32?

    /// The type of a file refused for not being regular (`FileType`); nil otherwise.
    package let fileType: mode_t?

    package init(reason: String, errno: Int32? = nil, fileType: mode_t? = nil) {
        self.reason = reason
        self.errno = errno
        self.fileType = fileType.map { $0 & S_IFMT }
    }

    /// The one wording of `not-a-regular-file`: "not a regular file: a FIFO", or
    /// "… a symlink to a FIFO" when the path was a link (`throughLink`).
    package static func notRegular(_ mode: mode_t, throughLink: Bool = false) -> SourceError {
        SourceError(reason: "not a regular file: \(throughLink ? "a symlink to " : "")\(FileType.describe(mode))",
                    fileType: mode)
    }

    package var description: String { reason }
}

extension SourceError: CodedError {
    package var code: ErrorCode { fileType != nil ? .notARegularFile : ErrorCode(errno: errno, otherwise: .sourceUnreadable) }
}
