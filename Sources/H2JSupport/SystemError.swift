#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, and the errno it left, kept as a number so that
/// callers can decide on it (ENOSPC, EACCES, …) rather than on text.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. "pread"; for messages only.
    package let call: String
    package let errno: Int32

    /// Captures the calling thread's current `errno`: create it right after the failed call.
    package init(call: String) {
        self.call = call
        self.errno = Glibc.errno
    }

    package init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `strerror(errno)`, the text every file-system message ends with.
    package var reason: String { String(cString: strerror(errno)) }

    package var description: String { reason }
}
