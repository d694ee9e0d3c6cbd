#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX calls the pipeline makes in more than one place, wrapped once.
package enum POSIX {
    /// `strerror(errno)`: the text every file-system error message ends with.
    package static func lastError() -> String {
        describe(errno)
    }

    /// `strerror(code)`: the one place an errno becomes text.
    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// This machine's name (`gethostname`), as bytes; empty when it cannot be had.
    package static func hostNameBytes() -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }

    /// Seconds on the monotonic clock, for durations (never for dates).
    package static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; errors name
    /// `path`, the file the descriptor stands for (the output, not its temp file).
    package static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(WriteError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(WriteError) in try writeAll(buffer, to: fd, path: path) } }.get()
    }

    /// Writes all of `bytes` (memory the caller keeps valid, such as a mapped file) to `fd`,
    /// as `writeAll` does an array.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws(WriteError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = retryingInterrupts { Glibc.write(fd, base + done, bytes.count - done) }
            if n < 0 && errno == EPIPE { raiseBrokenPipe() }
            guard n > 0 else { throw n < 0 ? .system(path) : WriteError(path: path, reason: "the write made no progress") }
            done += n
        }
    }

    /// A write found its pipe's reader gone: SIGPIPE to the whole process, errno kept. The
    /// kernel's own SIGPIPE goes to the writing thread, which may block it (a Dispatch
    /// thread), so the run's handler would never see it; a process-directed one reaches a
    /// thread that takes it, and a run ends with 141 however it wrote.
    static func raiseBrokenPipe() {
        let saved = errno
        kill(getpid(), SIGPIPE)
        errno = saved
    }

    /// Runs a system call again while it fails with EINTR (a signal arrived before it
    /// did anything); returns its last result. The one EINTR loop of the package.
    package static func retryingInterrupts(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            return result
        }
    }

    /// Everything `fd` yields until end of file (a pipe, stdin).
    package static func readToEnd(_ fd: Int32) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = retryingInterrupts { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            if n < 0 { throw SystemError() }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Writes `text` with one `write` where possible, so a killed run leaves whole
    /// lines; errors are ignored (a closed stderr must not fail a conversion). A file
    /// name in it comes out as its own bytes (`PathBytes`), as `ls` would show it.
    package static func write(_ text: String, to fd: Int32) {
        try? writeAll(PathBytes.bytes(text), to: fd, path: "")
    }

    /// `write` with a newline added.
    package static func writeLine(_ text: String, to fd: Int32) {
        write(text + "\n", to: fd)
    }
}

/// Why an output could not be written; `errno` is kept when a system call failed, so
/// callers can tell a full disk from other failures.
package struct WriteError: Error, Equatable, Sendable, CustomStringConvertible {
    package let path: String
    package let reason: String
    package let errno: Int32?
    package var description: String { "cannot write \(path): \(reason)" }

    package init(path: String, reason: String, errno: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// A failed system call on `path`: the reason is `prefix` (if any) and `strerror(errno)`.
    package static func system(_ path: String, _ prefix: String? = nil) -> WriteError {
        let code = Glibc.errno
        let text = POSIX.describe(code)
        return WriteError(path: path, reason: prefix.map { "\($0): \(text)" } ?? text, errno: code)
    }
}

extension POSIX {
    /// What `readdir` says an entry is (`d_type`); `unknown` on file systems that do not say.
    package enum EntryType: Sendable { case directory, file, other, unknown }
    /// One entry `readdir` returned: its name, its type, and its inode number.
    package typealias DirectoryEntry = (name: String, type: EntryType, inode: UInt64)

    /// The entry names of `directory`, `.` and `..` left out, in directory order.
    /// Throws the errno when the directory cannot be opened.
    package static func directoryNames(_ directory: String) throws(SystemError) -> [String] {
        try directoryEntries(directory).map(\.name)
    }

    /// The entries of `directory` with their types and inode numbers (`d_ino`), `.` and
    /// `..` left out, in directory order: the one `readdir` loop. Throws the errno when
    /// the directory cannot be opened.
    package static func directoryEntries(_ directory: String) throws(SystemError) -> [DirectoryEntry] {
        let fd = openFile(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError() }
        return try directoryEntries(taking: fd)
    }

    /// The entry names of the directory open as `descriptor` (`O_RDONLY | O_DIRECTORY`),
    /// which stays open for the caller (a copy of it is read and closed).
    package static func directoryNames(of descriptor: Int32) throws(SystemError) -> [String] {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw SystemError() }
        return try directoryEntries(taking: copy).map(\.name)
    }

    /// The entries of the directory open as `fd`, which is closed.
    private static func directoryEntries(taking fd: Int32) throws(SystemError) -> [DirectoryEntry] {
        guard let handle = fdopendir(fd) else {
            let error = SystemError()
            close(fd)
            throw error
        }
        defer { closedir(handle) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(handle) {
            // The name's bytes as they are: a name that is not UTF-8 stays itself (`PathBytes`).
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { PathBytes.string(cString: $0) }
            }
            guard name != "." && name != ".." else { continue }
            let type: EntryType = switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): .directory
            case Int32(DT_REG): .file
            case Int32(DT_UNKNOWN): .unknown
            default: .other
            }
            entries.append((name, type, UInt64(entry.pointee.d_ino)))
        }
        return entries
    }
}

extension WriteError: CodedError {
    package var code: ErrorCode { ErrorCode(errno: errno, otherwise: .writeFailed) }
}
