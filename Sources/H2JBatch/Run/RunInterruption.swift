import H2JJob
import H2JSupport

/// What the signal handler may reach of a run under way: its reporter, once the run has
/// one, so a run ended by a signal still ends its report with a summary.
package final class RunInterruption: @unchecked Sendable {
    private let lock = Lock()
    private var reporter: Reporter?

    package init() {}

    /// Called by the run once its reporter exists.
    func attach(_ reporter: Reporter) {
        lock.withLock { self.reporter = reporter }
    }

    /// Called by the signal handler before the process exits.
    package func interrupted(by signal: String) {
        guard let reporter = lock.withLock({ reporter }) else { return }
        reporter.finishInterrupted(by: signal)
    }
}
