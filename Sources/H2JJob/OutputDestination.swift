#if canImport(Glibc)
import Glibc
#endif
import H2JOutputPlan
import H2JSupport

/// What was written: its size, and its SHA-256 where the writer read it back.
package struct WrittenOutput: Sendable, Equatable {
    package var bytes: Int
    /// Lowercase hex; nil from a worker (the parent, which publishes, hashes).
    package var sha256: String?

    package init(bytes: Int, sha256: String? = nil) {
        self.bytes = bytes
        self.sha256 = sha256
    }
}

/// Where a converter's output goes once the pixels are ready to be written.
///
/// Invariant: `write` runs `body` at most once, on a descriptor of a file nobody else
/// sees yet, and returns its size (and digest); whatever `body` or the publishing
/// throws, nothing is left behind.
package protocol OutputDestination: Sendable {
    /// Writes the job's output `name` (the planned output, or another image's beside it)
    /// through `body`; `attributes` are the source's (times, bits, owner), nil for stdin.
    func write(_ job: ConversionJob, name: OutputName, attributes: OutputAttributes?, _ body: (Int32) throws -> Void) throws -> WrittenOutput
}
