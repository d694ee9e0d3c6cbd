#if canImport(Glibc)
import Glibc
#endif

/// A failed system call's errno, kept as a number so that callers can decide on it
/// (ENOSPC, EACCES, …) rather than on text.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    package let errno: Int32

    /// Captures the calling thread's current `errno`: create it right after the failed call.
    package init() {
        self.errno = Glibc.errno
    }

    package init(errno: Int32) {
        self.errno = errno
    }

    /// `strerror(errno)`, the text every file-system message ends with.
    package var description: String { POSIX.describe(errno) }
}

extension SystemError: CodedError {
    package var code: ErrorCode { ErrorCode(errno: errno, otherwise: .sourceUnreadable) }
}
