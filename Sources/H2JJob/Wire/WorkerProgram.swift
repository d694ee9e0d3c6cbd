#if canImport(Glibc)
import Glibc
#endif

/// What a forked worker runs: the worker's main (`H2JWorker`), handed to the parent by
/// the executable, so that the parent's code starts workers without linking a decoder.
package struct WorkerProgram: Sendable {
    /// The worker's life with its limits, started by the parent pid; returns its exit status.
    package let main: @Sendable (WorkerLimits, pid_t) -> Int32

    package init(main: @escaping @Sendable (WorkerLimits, pid_t) -> Int32) {
        self.main = main
    }
}
