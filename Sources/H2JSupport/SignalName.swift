#if canImport(Glibc)
import Glibc
#endif

extension POSIX {
    /// `SIGABRT`, `SIGTERM`…: the one table of signal names, for a worker's death and for
    /// the signal that ended a run; `signal N` for one it does not name.
    package static func signalName(_ signal: Int32) -> String {
        signalNames[signal] ?? "signal \(signal)"
    }

    private static let signalNames: [Int32: String] = [
        SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGILL: "SIGILL",
        SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP",
        SIGQUIT: "SIGQUIT", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        SIGSYS: "SIGSYS", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
    ]
}
