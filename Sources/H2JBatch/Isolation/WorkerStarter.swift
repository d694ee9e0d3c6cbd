import H2JJob
import H2JSupport

/// The thread that starts every worker of a process that has more than one thread.
///
/// A worker dies with the thread that started it, not with the parent process
/// (`PR_SET_PDEATHSIG` follows the thread), and the pool's Dispatch threads come and go:
/// a replacement started on one would be killed when that thread ends. This thread,
/// started on first use, never ends. A process with one thread forks its workers on that
/// thread (the main one, which lives as long as the process).
final class WorkerStarter: @unchecked Sendable {
    static let shared = WorkerStarter()

    /// One start asked for, and its outcome once the thread has made it.
    private final class Request {
        let limits: WorkerLimits
        let program: WorkerProgram
        var outcome: Result<WorkerProcess, SystemError>?
        init(_ limits: WorkerLimits, _ program: WorkerProgram) { (self.limits, self.program) = (limits, program) }
    }

    private let lock = Lock()
    private var pending: [Request] = []
    private var threadStarted = false

    /// A new worker with `limits`, started on the starter thread. Throws as
    /// `WorkerProcess.init` does, or when the thread cannot be created (EAGAIN).
    func start(_ limits: WorkerLimits, program: WorkerProgram) throws(SystemError) -> WorkerProcess {
        let request = Request(limits, program)
        let outcome = lock.withLock { () -> Result<WorkerProcess, SystemError> in
            if !threadStarted {
                do throws(SystemError) {
                    try POSIXThread.start { [self] in serve() }
                    threadStarted = true
                } catch {
                    return .failure(error)
                }
            }
            pending.append(request)
            lock.broadcast()
            while request.outcome == nil { lock.wait() }
            return request.outcome!
        }
        return try outcome.get()
    }

    /// The thread's life: start what is asked, for ever.
    private func serve() {
        lock.lock()
        while true {
            while pending.isEmpty { lock.wait() }
            let request = pending.removeFirst()
            lock.unlock()
            let outcome = Result { () throws(SystemError) in try WorkerProcess(limits: request.limits, program: request.program) }
            lock.lock()
            request.outcome = outcome
            lock.broadcast()
        }
    }
}
