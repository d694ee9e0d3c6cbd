#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX calls the pipeline makes in more than one place, wrapped once.
enum POSIX {
    /// `strerror(errno)`: the text every file-system error message ends with.
    static func lastError() -> String {
        String(cString: strerror(errno))
    }

    /// Seconds on the monotonic clock, for durations (never for dates).
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(WriteError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw WriteError(path: "fd \(fd)", reason: lastError()) }
            done += n
        }
    }
}
