#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// One run at a time over one state file (or output root): an exclusive `flock` on a
/// lock file beside it, which the kernel releases however the holder ends (kill -9
/// included). The holder writes its pid, host and start time into the file, so a second
/// run can say who has it.
package final class RunLock {
    /// The lock file: `STATE.lock`, or `OUTPUT/.heic2jpg.lock`.
    package let path: String
    private let fd: Int32

    /// What a second run is told: the lock file, and what its holder wrote there.
    package struct Busy: Error, CustomStringConvertible {
        package let path: String
        package let holder: String
        package var description: String { "another run (\(holder)) holds the lock \(path)" }
    }

    /// Takes the lock at `path`, waiting up to `wait` seconds (nil: not at all, infinity:
    /// for ever). Throws `Busy` when another run keeps it, `SystemError` when the lock
    /// file cannot be opened.
    package init(path: String, wait: Double?) throws {
        let fd = POSIX.openFile(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError() }
        let deadline = wait.map { POSIX.monotonicSeconds() + $0 }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let error = SystemError()
                close(fd)
                throw error
            }
            guard let deadline, POSIX.monotonicSeconds() < deadline else {
                let holder = Self.holder(fd)
                close(fd)
                throw Busy(path: path, holder: holder)
            }
            usleep(100_000)
        }
        self.path = path
        self.fd = fd
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let line = "pid \(getpid()), host \(PathBytes.string(cString: host)), since \(POSIX.utcTime())\n"
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, line, line.utf8.count, 0)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// What the holder wrote (its pid, host and start), or that it wrote nothing yet.
    private static func holder(_ fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: bytes[0..<count], as: UTF8.self).trimmingWhitespace : ""
        return text.isEmpty ? "which has not said who it is" : text
    }
}
