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
    func write(_ job: Job, name: OutputName, attributes: OutputAttributes?, _ body: (Int32) throws -> Void) throws -> WrittenOutput
}

/// Outputs written by this process (`compare`, and the parent's publishing of what a
/// worker wrote): a path through the run's publisher (atomically, after the claims
/// before the job's), `-` staged in a temp file and then copied to `standardOutput`
/// (`StagedStreamWriter`).
package struct PublishedOutput: OutputDestination {
    let publisher: OutputPublisher
    /// Where an output of `-` goes: the process's stdout, or for `compare` an unlinked
    /// temporary file (`MemoryOutputFile`) that is read back into memory.
    let standardOutput: Int32

    package init(publisher: OutputPublisher, standardOutput: Int32 = STDOUT_FILENO) {
        self.publisher = publisher
        self.standardOutput = standardOutput
    }

    package func write(_ job: Job, name: OutputName, attributes: OutputAttributes?,
                       _ body: (Int32) throws -> Void) throws -> WrittenOutput {
        switch job.output {
        case .path(let path):
            let primary = name == .primary
            return try publisher.write(name.path(besides: path), for: job.source.display, reservation: primary ? job.reservation : nil,
                                       replacing: primary && job.replacesExisting, attributes: attributes, body)
        case .standardStream:
            guard name == .primary else { throw WriteError(path: "-", reason: "standard output takes one image") }
            return try StagedStreamWriter.write(to: standardOutput, body)
        }
    }
}
