import H2JSupport

/// Where a job reads or writes: a path, or the process's standard stream (`-`).
package enum Endpoint: Sendable, Equatable {
    case path(String)
    case standardStream

    /// The path, or `-` for stdin/stdout: what reports and messages show.
    package var display: String {
        switch self {
        case .path(let path): return path
        case .standardStream: return "-"
        }
    }

    /// The file name, or `-` for a stream: what the provenance mark records as the
    /// source's name, and what `OutputOwnership` looks for in an existing output's mark.
    package var fileName: String {
        switch self {
        case .path(let path): Path.lastComponent(path)
        case .standardStream: "-"
        }
    }
}

/// One unit of work for the worker pool, fully decided by the planner.
package struct Job: Sendable, Equatable {
    package enum Action: String, Sendable {
        /// Decode HEIF, encode JPEG.
        case convert
        /// The content already is JPEG: copy it (metadata filtered in strip mode).
        case copy
    }

    package let source: Endpoint
    package let output: Endpoint
    package let action: Action
    /// For in-memory input (stdin): the bytes already read.
    package let bytes: [UInt8]?
    /// The source as the planner opened it: its descriptor goes to the worker with the
    /// job, so the worker opens nothing. It stays open while the job exists (the pool
    /// bounds how many do); nil for stdin, or a job made without planning.
    package let file: SourceFile?
    /// This job's claim on its output path (made by the planner in walk order), settled
    /// when the job ends; nil for stdout.
    package let reservation: OutputReservation?
    /// The planner found this source's own earlier output at the path and `--overwrite`
    /// asks to replace it; otherwise publishing never replaces a file.
    package let replacesExisting: Bool

    package init(source: Endpoint, output: Endpoint, action: Action, bytes: [UInt8]? = nil, file: SourceFile? = nil,
                reservation: OutputReservation? = nil, replacesExisting: Bool = false) {
        self.source = source
        self.output = output
        self.action = action
        self.bytes = bytes
        self.file = file
        self.reservation = reservation
        self.replacesExisting = replacesExisting
    }

    package static func == (a: Job, b: Job) -> Bool {
        a.source == b.source && a.output == b.output && a.action == b.action && a.bytes == b.bytes && a.file === b.file
            && a.reservation === b.reservation && a.replacesExisting == b.replacesExisting
    }
}
