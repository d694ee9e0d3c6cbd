import H2JOutputPlan
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

/// What one conversion needs, and all a worker is given of a job: where to read and
/// write, what to do, the source's SHA-256 for the mark, and the images an earlier
/// attempt died on. The batch's `Job` adds
/// what only the parent uses (the output's claim, the state's records, the hand-off's
/// identity).
package struct ConversionJob: Sendable, Equatable {
    package enum Action: String, Sendable {
        /// Decode HEIF, encode JPEG.
        case convert
        /// The content already is JPEG: copy it (metadata filtered in strip mode).
        case copy
    }

    package let source: Endpoint
    package let output: Endpoint
    /// `--name` with `{n}`: each image's own name (`OutputName.path(besides:numbered:)`).
    package let numbered: NumberedNames?
    package let action: Action
    /// For in-memory input (stdin): the bytes already read.
    package let bytes: [UInt8]?
    /// The source as the planner opened it: its descriptor goes to the worker with the
    /// job, so the worker opens nothing. It stays open while the job exists (the pool
    /// bounds how many do); nil for stdin, or a job made without planning.
    package private(set) var file: SourceFile?
    /// Images other than the primary that an earlier attempt's worker died on: the
    /// converter leaves them out, each with an `image-not-converted` warning.
    package private(set) var omittedImages: [OmittedImage] = []
    /// The source's SHA-256 as the parent computed it, which the mark records; nil where
    /// none did (`compare`), and the converter hashes what it reads.
    package private(set) var sourceSHA256: String?

    package init(source: Endpoint, output: Endpoint, numbered: NumberedNames? = nil, action: Action, bytes: [UInt8]? = nil,
                 file: SourceFile? = nil) {
        self.source = source
        self.output = output
        self.numbered = numbered
        self.action = action
        self.bytes = bytes
        self.file = file
    }

    /// Where output `name` goes (or went): beside the planned output, `-` for a stream.
    package func path(of name: OutputName) -> String {
        name.path(besides: output.display, numbered: numbered)
    }

    /// The same job, reading `file` (the descriptor a worker received with it).
    package func reading(_ file: SourceFile) -> ConversionJob {
        var job = self
        job.file = file
        return job
    }

    /// The same job, with the parent's SHA-256 of its source.
    package func digested(_ sha256: String?) -> ConversionJob {
        var job = self
        job.sourceSHA256 = sha256
        return job
    }

    /// The same job, leaving out one more image.
    package func omitting(_ image: OmittedImage) -> ConversionJob {
        var job = self
        job.omittedImages.append(image)
        return job
    }

    package static func == (a: ConversionJob, b: ConversionJob) -> Bool {
        a.source == b.source && a.output == b.output && a.numbered == b.numbered && a.action == b.action && a.bytes == b.bytes && a.file === b.file
            && a.omittedImages == b.omittedImages && a.sourceSHA256 == b.sourceSHA256
    }
}

/// An image of a source, not its primary, that a worker died on (a crash, `--timeout`,
/// `--max-memory`): the job is run again in a fresh worker without it
/// (`WorkerSupervisor`), so that one image costs only its own output.
package struct OmittedImage: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image item, as the worker's last `stage` message named it.
    package let item: UInt32
    /// How the worker died, in `WorkerDeath`'s words: the signal and the stage.
    package let reason: String

    package init(item: UInt32, reason: String) {
        self.item = item
        self.reason = reason
    }

    package var description: String { reason }
}
