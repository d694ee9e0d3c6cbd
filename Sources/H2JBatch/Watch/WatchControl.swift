#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// What a watch is asked from outside its loop (signal handlers, the executable), each a
/// flag and a byte on a pipe the loop polls beside its inotify descriptor, so a request
/// wakes it at once.
package final class WatchControl: @unchecked Sendable {
    package enum Request: Sendable {
        /// SIGTERM, SIGINT: take nothing more.
        case stop
        /// SIGHUP: walk every directory again.
        case rescan
        /// SIGUSR1: print the summary line now.
        case summary
    }

    private let lock = Lock()
    private var pending: Set<Request> = []
    private var stopped = false
    /// The pipe's ends: the loop polls `wake`, requests write to `signal`.
    let wake: Int32
    private let signal: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        // A socket pair: pipe2 is not in Swift's Glibc. Should it fail, requests still
        // set their flags; the loop sees them at its next timeout.
        _ = socketpair(AF_UNIX, type, 0, &ends)
        (wake, signal) = (ends[0], ends[1])
    }

    deinit {
        if wake >= 0 { close(wake) }
        if signal >= 0 { close(signal) }
    }

    /// Asks the loop for `request`; safe from any thread.
    package func ask(_ request: Request) {
        lock.withLock {
            pending.insert(request)
            if request == .stop { stopped = true }
        }
        var byte: UInt8 = 1
        _ = Glibc.write(signal, &byte, 1)
    }

    /// Whether a stop was asked.
    package var isStopped: Bool { lock.withLock { stopped } }

    /// The requests made since the last call, the wake-up bytes drained.
    func take() -> Set<Request> {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ Glibc.read(wake, $0.baseAddress, $0.count) }) > 0 {}
        return lock.withLock {
            defer { pending.removeAll() }
            return pending
        }
    }
}
