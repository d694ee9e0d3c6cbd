import CWorkerIPC

/// The worker's seccomp filter (see `h2j_enter_sandbox`): defence in depth, should a
/// hostile file take over a decoder. ARCHITECTURE.md says what it forbids and why.
package enum WorkerSandbox {
    /// Installs the filter on this process; false when the kernel refuses it (the worker
    /// then runs without). Call before any other thread starts.
    @discardableResult
    package static func enter() -> Bool {
        h2j_enter_sandbox() == 0
    }
}
