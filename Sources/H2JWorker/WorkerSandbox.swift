import CWorkerIPC
import H2JConvert
import H2JJob

/// The worker sandbox (`h2j_enter_sandbox`): defence in depth, should a hostile file take
/// over a decoder. ARCHITECTURE.md says what each layer forbids and why.
package enum WorkerSandbox {
    /// Enters the sandbox; false (errno set) when a layer could not be put in place, and
    /// the worker must not run. Call while the process has one thread; `parent` is the
    /// pid that started the worker.
    package static func enter(parent: pid_t, limits: WorkerLimits) -> Bool {
        h2j_enter_sandbox(Int32(H2J_SANDBOX_ALL), parent, UInt64(limits.outputBytes)) >= 0
    }
}
