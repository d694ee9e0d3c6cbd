#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// One run at a time over one state file or output root: an exclusive `flock` that the
/// kernel releases however the holder ends (kill -9 included). With `--state` it is
/// taken on `STATE.lock`, a file beside the state, and each output root the run writes
/// into is locked too, on the directory itself, so the output tree holds nothing but
/// outputs. Shards of one migration (`--shard`) write disjoint files of one tree, so they
/// take an output root's lock `shared`: together they exclude any unsharded run, and each
/// shard's own state lock keeps it single. A second run is told who holds it: the pid
/// that `/proc/locks` names, and when that process started.
package final class RunLock {
    /// What is locked: the lock file or the output directory.
    package let path: String
    private let fd: Int32

    /// What a second run is told: what is locked, and by whom.
    package struct Busy: Error, CustomStringConvertible {
        package let path: String
        package let holder: String
        package var description: String { "another run (\(holder)) holds the lock on \(path)" }
    }

    /// Takes the lock on `path` (a file, created if need be, or a directory), exclusive or
    /// `shared`, waiting up to `wait` seconds (nil: not at all, infinity: for ever).
    /// Throws `Busy` when another run keeps it, `SystemError` when `path` cannot be opened.
    package init(path: String, wait: Double?, shared: Bool = false) throws {
        let isDirectory = Path.isDirectory(path)
        let fd = isDirectory ? POSIX.openFile(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            : POSIX.openFile(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError() }
        let deadline = wait.map { POSIX.monotonicSeconds() + $0 }
        while flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let error = SystemError()
                close(fd)
                throw error
            }
            guard let deadline, POSIX.monotonicSeconds() < deadline else {
                let holder = Self.holder(of: fd)
                close(fd)
                throw Busy(path: path, holder: holder)
            }
            usleep(100_000)
        }
        self.path = path
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// "pid N, since T" for the process `/proc/locks` says holds a `flock` on the file
    /// `fd` is open on; a plainer text when it cannot be told.
    static func holder(of fd: Int32) -> String {
        guard let pid = holderPID(of: fd) else { return "another process" }
        return "pid \(pid)" + (startTime(of: pid).map { ", since \($0)" } ?? "")
    }

    /// The process of this machine that holds a `flock` on `path`, if the file is there
    /// and one does. Opens it without creating it and takes no lock, so a run starting
    /// meanwhile is never kept out (`status` asks this of a state's lock).
    package static func holderPID(ofFile path: String) -> Int32? {
        let fd = POSIX.openFile(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return holderPID(of: fd)
    }

    /// The pid `/proc/locks` gives for a `flock` on the file `fd` is open on.
    private static func holderPID(of fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let locks = POSIX.readFile("/proc/locks") else { return nil }
        // Lines: "1: FLOCK  ADVISORY  WRITE 1234 fd:01:5678 0 EOF": pid, then the device's
        // major and minor in hex and the inode.
        let device = UInt64(info.st_dev)
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~0xFFF, minor = device & 0xFF | (device >> 12) & ~0xFF
        for line in String(decoding: locks, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                  UInt64(file[2]) == UInt64(info.st_ino) else { continue }
            return pid
        }
        return nil
    }

    /// When process `pid` started, ISO 8601 UTC: boot time plus its start in clock ticks.
    private static func startTime(of pid: Int32) -> String? {
        guard let stat = POSIX.readFile("/proc/\(pid)/stat"), let boot = POSIX.readFile("/proc/stat") else { return nil }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 20, let ticks = Int(fields[19]),
              let bootLine = String(decoding: boot, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let bootSeconds = Int(bootLine.dropFirst(6)) else { return nil }
        var seconds = time_t(bootSeconds + ticks / max(1, sysconf(Int32(_SC_CLK_TCK))))
        return POSIX.utcTime(seconds: &seconds)
    }
}
