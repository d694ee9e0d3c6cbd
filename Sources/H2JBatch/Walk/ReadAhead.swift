import H2JSupport

/// A walk run on a thread of its own, at most `capacity` steps ahead of the thread that
/// takes its files: on a rerun the `stat` calls of the walk and the state's verdicts
/// then use both cores. The walk's other news (a directory left, `InputWalker`'s
/// `onLeave`) goes through `deliver`, in order with its files, and is acted on by the
/// taking thread, so it still comes after every file of that directory is dealt with.
/// `cancel` (when the taker stops early) ends the walk at its next step.
final class ReadAhead<Element: Sendable>: IteratorProtocol, Sequence, @unchecked Sendable {
    private enum Step {
        case element(Element)
        case event(() -> Void)
    }

    static var capacity: Int { 512 }
    private let lock = Lock()
    /// Produced, not yet taken (under `lock`).
    private var pending: [Step] = []
    /// Taken from `pending`, in order, by the taking thread alone.
    private var taken: [Step] = []
    private var position = 0
    private var finished = false
    private var cancelled = false

    private let walk: AnyIterator<Element>

    init(_ walk: AnyIterator<Element>) {
        self.walk = walk
    }

    /// Starts the walk on a new thread (after `deliver`'s callers can reach this); without
    /// one, it is walked on the taking thread as its files are asked for.
    func start() {
        let box = UnsafeTransfer(walk)
        do {
            try POSIXThread.start { [self] in
                let walk = box.value
                while let element = walk.next(), put(.element(element)) {}
                lock.withLock {
                    finished = true
                    lock.broadcast()
                }
            }
        } catch {
            fallback = { [walk] in walk.next() }
        }
    }

    /// The walk, when no thread could be started for it.
    private var fallback: (() -> Element?)?

    /// Queues `event` to run on the taking thread after the files produced before it.
    func deliver(_ event: @escaping () -> Void) {
        guard fallback == nil else { return event() }
        _ = put(.event(event))
    }

    /// Stops the walk (it ends at its next step; what it produced is dropped).
    func cancel() {
        lock.withLock {
            cancelled = true
            pending.removeAll()
            lock.broadcast()
        }
    }

    func next() -> Element? {
        if let fallback { return fallback() }
        while true {
            while position < taken.count {
                defer { position += 1 }
                switch taken[position] {
                case .element(let element): return element
                case .event(let event): event()
                }
            }
            taken.removeAll(keepingCapacity: true)
            position = 0
            let done = lock.withLock { () -> Bool in
                while pending.isEmpty && !finished && !cancelled { lock.wait() }
                swap(&taken, &pending)
                lock.broadcast()
                return taken.isEmpty
            }
            if done { return nil }
        }
    }

    /// Queues one step, waiting while `capacity` are queued; false once cancelled.
    private func put(_ step: Step) -> Bool {
        lock.withLock {
            while pending.count >= Self.capacity && !cancelled { lock.wait() }
            guard !cancelled else { return false }
            pending.append(step)
            if pending.count == 1 { lock.broadcast() }
            return true
        }
    }
}

/// Carries a value to the one thread that will use it from then on.
private struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
