#if canImport(Glibc)
import Glibc
#endif

/// An input file opened for reading: descriptor, size, times and identity.
/// The descriptor is closed on deinit.
final class SourceFile {
    let path: String
    let fd: Int32
    let info: stat

    /// Opens `path` read-only; the error text names the cause (errno).
    init(path: String) throws(SourceError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SourceError(reason: "cannot open: \(POSIX.lastError())") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw SourceError(reason: "cannot stat: \(POSIX.lastError())")
        }
        self.path = path
        self.fd = fd
        self.info = info
    }

    deinit { close(fd) }

    var size: Int { Int(info.st_size) }
    var byteSource: FileByteSource { FileByteSource(fd: fd, size: size) }
    /// Access and modification times, copied onto the output.
    var times: FileTimes { (info.st_atim, info.st_mtim) }

    /// Up to `count` bytes from the start (fewer for a short file).
    func prefix(_ count: Int) throws(SourceError) -> [UInt8] {
        do {
            return try byteSource.read(at: 0, count: min(count, size))
        } catch {
            throw SourceError(reason: "cannot read: \(POSIX.lastError())")
        }
    }

    /// The whole file.
    func readAll() throws(SourceError) -> [UInt8] {
        try prefix(size)
    }

    /// True when `other` names this same file (device and inode).
    func isSameFile(as other: String) -> Bool {
        var otherInfo = stat()
        return stat(other, &otherInfo) == 0 && otherInfo.st_dev == info.st_dev && otherInfo.st_ino == info.st_ino
    }
}

/// A source's access and modification times, which its output gets too.
typealias FileTimes = (access: timespec, modification: timespec)

/// Why a source file could not be read.
struct SourceError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
