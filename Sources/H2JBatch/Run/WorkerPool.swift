import Dispatch
import H2JJob
import H2JSupport

/// A fixed number of workers on Dispatch's global concurrent queue, fed one job at a
/// time by a producer.
///
/// Invariant: at most `workers` jobs exist at once: `submit` blocks while all workers
/// are busy, so the producer never reads ahead of the pool and a batch of millions of
/// files costs no more memory than `workers` files.
final class WorkerPool: @unchecked Sendable {
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let queue = DispatchQueue.global(qos: .userInitiated)
    private let lock = Lock()
    private var running = 0

    init(workers: Int) {
        slots = DispatchSemaphore(value: max(1, workers))
    }

    /// Runs `work` on a free worker, waiting for one to become free first.
    func submit(_ work: @escaping @Sendable () -> Void) {
        slots.wait()
        lock.withLock { running += 1 }
        queue.async(group: group) { [slots, self] in
            work()
            lock.withLock { running -= 1 }
            slots.signal()
        }
    }

    /// Whether no job is under way.
    var isIdle: Bool { lock.withLock { running == 0 } }

    /// Waits until every submitted job has finished.
    func waitForAll() {
        group.wait()
    }
}
