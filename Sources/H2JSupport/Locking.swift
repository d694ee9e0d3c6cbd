#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with a condition variable: the pipeline's one locking primitive.
///
/// Plain POSIX rather than Foundation's `NSLock`/`NSCondition`/`Thread`: Foundation
/// (with ICU) costs about 10 ms of start-up in every process, a third of the time a
/// small file takes to convert. The mutex is heap-allocated once and never moves.
package final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    /// Takes the lock only if it is free now; true when taken.
    package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for `broadcast`; call holding the lock, in a loop that rechecks the state.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter; call holding the lock.
    package func broadcast() { pthread_cond_broadcast(condition) }
}

/// Starts `body` on a new detached POSIX thread with a 1 MB stack.
package enum POSIXThread {
    /// Boxes the closure across `pthread_create`'s untyped argument.
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Throws when no thread could be created (EAGAIN: a thread or memory limit); `body`
    /// then never runs, so a caller waiting on it must not wait.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 1 << 20)
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            Unmanaged<Start>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, start)
        if status != 0 {
            Unmanaged<Start>.fromOpaque(start).release()
            throw SystemError(errno: status)
        }
    }
}
