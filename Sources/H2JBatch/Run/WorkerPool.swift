import Dispatch
import H2JJob

/// A fixed number of workers on Dispatch's global concurrent queue, fed one job at a
/// time by a producer.
///
/// Invariant: at most `workers` jobs exist at once: `submit` blocks while all workers
/// are busy, so the producer never reads ahead of the pool and a batch of millions of
/// files costs no more memory than `workers` files.
final class WorkerPool: Sendable {
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let queue = DispatchQueue.global(qos: .userInitiated)

    init(workers: Int) {
        slots = DispatchSemaphore(value: max(1, workers))
    }

    /// Runs `work` on a free worker, waiting for one to become free first.
    func submit(_ work: @escaping @Sendable () -> Void) {
        slots.wait()
        queue.async(group: group) { [slots] in
            work()
            slots.signal()
        }
    }

    /// Waits until every submitted job has finished.
    func waitForAll() {
        group.wait()
    }
}
