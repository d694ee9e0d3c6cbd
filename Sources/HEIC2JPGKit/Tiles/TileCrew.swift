import Dispatch
import Foundation
import Synchronization

/// The threads that decode one file's tiles: `lanes` threads started once per file,
/// each handed every band in turn, taking its tiles one at a time from a shared counter.
///
/// Own threads rather than `DispatchQueue.concurrentPerform`: called from a worker of
/// the global queue (where `WorkerPool` runs conversions), libdispatch on Linux ran the
/// iterations one after another. Running apart from the caller also lets the caller
/// encode the previous band while the crew decodes the next one.
///
/// Use: `start` a band, do other work, `wait` for it; `stop` once at the end (always, or
/// the threads stay parked). `@unchecked Sendable`: `work` and `stopping` are written by
/// the caller only while the crew is parked, and the semaphores order those writes
/// before the threads read them.
final class TileCrew: @unchecked Sendable {
    typealias Work = @Sendable (_ index: Int, _ decoder: HEVCTileDecoder) throws -> Void

    private let lanes: Int
    private let go = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let next = Atomic<Int>(0)
    private let failure = Mutex<(any Error)?>(nil)
    private var work: (count: Int, body: Work)?
    private var stopping = false
    private var running = false

    init(lanes: Int) {
        self.lanes = max(1, lanes)
        for _ in 0..<self.lanes {
            let thread = Thread { [self] in loop() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Starts `count` items of `body` on the crew and returns at once.
    func start(count: Int, _ body: @escaping Work) {
        work = (count, body)
        next.store(0, ordering: .relaxed)
        running = true
        for _ in 0..<lanes { go.signal() }
    }

    /// Waits for the started items; rethrows the first error (the rest were skipped).
    func wait() throws {
        guard running else { return }
        for _ in 0..<lanes { finished.wait() }
        running = false
        work = nil
        if let error = failure.withLock({ error -> (any Error)? in defer { error = nil }; return error }) { throw error }
    }

    /// Waits for any started work, then lets the threads end.
    func stop() {
        try? wait()
        stopping = true
        for _ in 0..<lanes { go.signal() }
    }

    private func loop() {
        while true {
            go.wait()
            if stopping { return }
            if let work {
                do {
                    try HEVCDecoderPool.shared.withDecoder { decoder in
                        while failure.withLock({ $0 == nil }) {
                            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                            guard index < work.count else { return }
                            try work.body(index, decoder)
                        }
                    }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
            finished.signal()
        }
    }
}
