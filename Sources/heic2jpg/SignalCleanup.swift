#if canImport(Glibc)
import Glibc
#endif
import CSignalPipe
import Dispatch
import H2JBatch
import H2JConvert
import H2JSupport

/// Every signal that ends a run by default (INT, TERM, HUP, PIPE, QUIT, USR1, USR2,
/// ALRM): kill the worker processes, remove every temp file, end the report with its
/// summary (`interruptedBy`), then exit with 128 + signal.
///
/// A watch (`control`) is a service: TERM and INT ask it to stop, and files under way get
/// `stopGraceSeconds` to finish before the same cleanup ends it with 0; HUP asks for a
/// rescan and USR1 for the summary line.
///
/// The handler runs on a Dispatch queue (not in signal context), so it may take locks;
/// SIGPIPE, which libdispatch's signal sources never see on Linux, reaches it as a byte on
/// a pipe (`CSignalPipe`): a `kill -PIPE`, or a write to a closed pipe on stdout, ends the
/// run with 141 like the others (the workers' sockets send with MSG_NOSIGNAL);
/// `OutputPublisher.removeAllAndSeal` also stops workers from publishing afterwards. It
/// says why on stderr only if stderr can take the line now: a full stderr pipe (nobody
/// reading it) must not keep a SIGTERM from ending the run.
package final class SignalCleanup {
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

    private let sources: [any DispatchSourceProtocol]
    /// Set once a signal's cleanup has begun (it ends with `_exit`).
    private let ending: Flag
    /// SIGPIPE's pipe: a byte there is a SIGPIPE whose cleanup is on its way.
    private let pipe: Int32

    /// How long a stopping watch waits for the files under way before it abandons them:
    /// the whole stop stays within 5 seconds.
    static let stopGraceSeconds = 3.5

    package init(publisher: OutputPublisher, workers: WorkerSupervisor, interruption: RunInterruption, watch control: WatchControl? = nil) {
        let queue = DispatchQueue(label: "heic2jpg.signals")
        let ending = Flag()
        self.ending = ending
        let cleanUp: @Sendable (Int32, Int32) -> Never = { number, status in
            ending.set()
            workers.killAll()
            publisher.removeAllAndSeal()
            interruption.interrupted(by: POSIX.signalName(number))
            var stderr = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
            if poll(&stderr, 1, 0) == 1, stderr.revents & Int16(POLLOUT) != 0 {
                POSIX.writeLine("\nheic2jpg: \(control == nil ? "interrupted" : "stopped") by signal \(number); no partial output left",
                                to: STDERR_FILENO)
            }
            _exit(status)
        }
        let end: @Sendable (Int32) -> Void = { number in
            guard let control else { cleanUp(number, 128 + number) }
            switch number {
            case SIGTERM, SIGINT:
                control.ask(.stop)
                queue.asyncAfter(deadline: .now() + Self.stopGraceSeconds) { cleanUp(number, 0) }
            case SIGHUP: control.ask(.rescan)
            case SIGUSR1: control.ask(.summary)
            default: cleanUp(number, 128 + number)
            }
        }
        var pipeFD: Int32 = -1
        sources = Self.signals.compactMap { number -> (any DispatchSourceProtocol)? in
            if number == SIGPIPE {
                let pipe = h2j_signal_pipe(number)
                guard pipe >= 0 else { return nil }
                pipeFD = pipe
                let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: queue)
                source.setEventHandler { end(number) }
                source.resume()
                return source
            }
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { end(number) }
            source.resume()
            return source
        }
        pipe = pipeFD
    }

    /// Called on the main thread before it exits with a run's status. A signal that ended
    /// the run must give the exit status (128 + N), but its cleanup runs on another
    /// thread: when it has begun, or SIGPIPE's byte waits on its pipe (a write to a closed
    /// stdout raises it as the run fails on EPIPE), this waits for the cleanup's `_exit`
    /// and never returns.
    package func yieldToEndingSignal() {
        var waiting = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
        guard ending.isSet || (pipe >= 0 && poll(&waiting, 1, 0) == 1) else { return }
        while true { pause() }
    }
}

/// A flag one thread sets and others read.
private final class Flag: @unchecked Sendable {
    private let lock = Lock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
