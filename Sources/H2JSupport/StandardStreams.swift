#if canImport(Glibc)
import Glibc
#endif

/// Descriptors 0–2 as the program found them. A process started with one of them closed
/// would hand that number to the next file or socket it opens (a worker's socket, once),
/// and whatever it then printed as output or errors would go there; so at start each
/// closed one is opened on /dev/null, before anything else is opened.
package enum StandardStreams {
    /// Opens /dev/null on each of 0, 1 and 2 that is closed, and returns those that were
    /// (lowest first). Call first thing in `main`, before any file or socket exists.
    package static func openClosed() -> [Int32] {
        let closed = (STDIN_FILENO...STDERR_FILENO).filter { fcntl($0, F_GETFD) < 0 && errno == EBADF }
        for fd in closed {
            // Not close-on-exec: these stand for the process's own standard streams.
            var null = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            // Without /dev/null (a bare chroot), a directory holds the number: writes fail.
            if null < 0 { null = open("/", O_RDONLY | O_DIRECTORY) }
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
        return closed
    }

    /// Whether `fd` is open for writing (a descriptor opened read-only is not).
    package static func isWritable(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && flags & O_ACCMODE != O_RDONLY
    }
}
