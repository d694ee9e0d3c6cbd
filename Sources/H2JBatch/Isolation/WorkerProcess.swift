#if canImport(Glibc)
import Glibc
#endif
import CWorkerIPC
import H2JChannel
import H2JJob
import H2JSupport

/// One worker process as the parent sees it: its pid, its socket, its stderr.
///
/// The worker is this same executable: forked when the parent still has one thread (the
/// workers pre-started before the run begins, which then start at once), otherwise
/// started afresh with `WorkerLimits.workerArgument` (a replacement, about 10 ms of loading).
/// Either way there is no exec per file: a worker converts job after job. Its stdin and stdout are /dev/null (stdout may be
/// carrying a JPEG), its stderr is a pipe the parent drains, and fd 3 is its end of the
/// socket. It stays in the parent's process group, so a Ctrl-C or a `kill -- -PGID`
/// reaches it too.
final class WorkerProcess {
    let pid: pid_t
    let socket: WorkerSocket
    let stderr: StreamDrain
    private var reaped: WorkerExit?

    /// Starts a worker with `limits`; a forked one runs `program`. Throws when the system
    /// refuses (no processes, no descriptors left).
    init(limits: WorkerLimits, program: WorkerProgram) throws(SystemError) {
        // Both created close-on-exec atomically, so no other thread's spawn inherits them;
        // the stderr channel is a socket pair too, as pipe2 is not in Swift's Glibc.
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw SystemError() }
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, type, 0, &pipeEnds) == 0 else {
            let error = SystemError()
            pair.forEach { _ = close($0) }
            throw error
        }
        // Out of the range the child's dup2 targets, so dup2 never meets its own source.
        let childSocket = fcntl(pair[1], F_DUPFD_CLOEXEC, 10), childStderr = fcntl(pipeEnds[1], F_DUPFD_CLOEXEC, 10)
        close(pair[1])
        close(pipeEnds[1])
        defer {
            if childSocket >= 0 { close(childSocket) }
            if childStderr >= 0 { close(childStderr) }
        }
        var pid: pid_t = 0
        var code: Int32 = EMFILE
        if childSocket >= 0, childStderr >= 0 {
            let parent = getpid()
            if Self.isSingleThreaded {
                pid = h2j_fork_worker(childSocket, childStderr)
                if pid == 0 { exit(program.main(limits, parent)) }
                code = pid > 0 ? 0 : errno
            } else {
                code = Self.spawn(&pid, limits: limits, parent: parent, socket: childSocket, stderr: childStderr)
            }
        }
        guard code == 0 else {
            let error = SystemError(errno: code != 0 ? code : EMFILE)
            close(pair[0])
            close(pipeEnds[0])
            throw error
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        self.pid = pid
        socket = WorkerSocket(fd: pair[0], maxFrame: 1 << 26)
        stderr = StreamDrain(fd: pipeEnds[0])
    }

    /// Whether this process has one thread, so that a fork copies a consistent process.
    static var isSingleThreaded: Bool {
        ((try? POSIX.directoryNames("/proc/self/task"))?.count ?? 0) == 1
    }

    /// `posix_spawn` of `/proc/self/exe`: descriptors as the worker expects them, every
    /// signal but SIGXFSZ at its default action (the parent ignores some while it runs).
    private static func spawn(_ pid: inout pid_t, limits: WorkerLimits, parent: pid_t, socket: Int32, stderr: Int32) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        posix_spawn_file_actions_adddup2(&actions, socket, WorkerSocket.workerDescriptor)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), mask = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGXFSZ)
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = (["heic2jpg", WorkerLimits.workerArgument, String(parent)] + limits.arguments).map { Array($0.utf8) }
        return withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, envp) }
        }
    }

    deinit {
        if reaped == nil {
            Glibc.kill(pid, SIGKILL)
            _ = reap()
        }
        close(socket.fd)
    }

    /// Kills the worker (a timeout, a broken protocol) and reaps it.
    func kill() -> WorkerExit {
        Glibc.kill(pid, SIGKILL)
        return reap()
    }

    /// Waits for the worker to end (it has closed its socket, or was killed) and drains
    /// the rest of its stderr.
    func reap() -> WorkerExit {
        if let reaped { return reaped }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        stderr.readToEnd(within: 0.5)
        // Linux's wait status: the low 7 bits are the signal (0 = exited), the next byte the status.
        let signal = status & 0x7F
        let exit = WorkerExit(signal: signal == 0 ? nil : signal, status: (status >> 8) & 0xFF,
                              peakBytes: Int(usage.ru_maxrss) * 1024)
        reaped = exit
        return exit
    }

    /// The parent's environment, with Swift's crash backtracer off: a crashing worker
    /// should die at once with the runtime's one-line message, not spend seconds
    /// symbolicating.
    /// Entries are kept as bytes: an environment need not be UTF-8.
    private static let environment: [[UInt8]] = {
        var entries: [[UInt8]] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self),
                                                  count: strlen(entry)))
            if !bytes.starts(with: "SWIFT_BACKTRACE=".utf8) { entries.append(bytes) }
            pointer += 1
        }
        return entries + [Array("SWIFT_BACKTRACE=enable=no".utf8)]
    }()

    /// `strings` as a NULL-terminated C array for the duration of `body`.
    private static func withCStrings<R>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { pointers.forEach { $0?.deallocate() } }
        return body(pointers)
    }
}
