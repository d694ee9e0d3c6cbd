/// How a worker process ended, from `wait4`.
struct WorkerExit: Equatable {
    /// The signal that killed it, or nil when it exited.
    let signal: Int32?
    /// The exit status when it exited.
    let status: Int32
    /// Its peak resident memory, in bytes.
    let peakBytes: Int
}
