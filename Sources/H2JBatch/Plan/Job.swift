import H2JDigest
import H2JJob
import H2JOutputPlan
import H2JSupport

/// One unit of work for the worker pool, fully decided by the planner: the conversion a
/// worker runs, and what the parent keeps to publish, record and hand off its outputs.
package struct Job: Sendable, Equatable {
    package typealias Action = ConversionJob.Action

    /// What the worker is given.
    package private(set) var conversion: ConversionJob
    /// This job's claim on its output path (made by the planner in walk order), settled
    /// when the job ends; nil for stdout.
    package let reservation: OutputReservation?
    /// The planner found this source's own earlier output at the path and `--overwrite`
    /// asks to replace it; otherwise publishing never replaces a file.
    package let replacesExisting: Bool
    /// `--state`: the absolute paths the state records as this source's outputs, each its
    /// own with or without a mark (`OutputOwnership`), another image's included.
    package let recordedOutputs: Set<String>
    /// What the planner's `fstat` of the source saw (nil for stdin): the hand-off removes
    /// the source only while it is still this file (`SourceIdentity`).
    package let sourceIdentity: SourceIdentity?

    package init(source: Endpoint, output: Endpoint, numbered: NumberedNames? = nil, action: Action, bytes: [UInt8]? = nil, file: SourceFile? = nil,
                reservation: OutputReservation? = nil, replacesExisting: Bool = false, recordedOutputs: Set<String> = [],
                sourceIdentity: SourceIdentity? = nil, sourceSHA256: String? = nil) {
        self.conversion = ConversionJob(source: source, output: output, numbered: numbered, action: action, bytes: bytes, file: file)
            .digested(sourceSHA256)
        self.reservation = reservation
        self.replacesExisting = replacesExisting
        self.recordedOutputs = recordedOutputs
        self.sourceIdentity = sourceIdentity
    }

    package var source: Endpoint { conversion.source }
    package var output: Endpoint { conversion.output }
    package var action: Action { conversion.action }
    package var file: SourceFile? { conversion.file }
    package var omittedImages: [OmittedImage] { conversion.omittedImages }
    /// The parent's SHA-256 of the source, read after the planner's `fstat`: the
    /// planner's (when ownership or a hand-off needed it early), or the pool's
    /// (`digested`), before the job goes to a worker; the worker's word is never taken.
    package var sourceSHA256: String? { conversion.sourceSHA256 }

    /// The same job, with its source hashed if the planner did not: what the mark and
    /// the state record (nil when it cannot be read: the worker then hashes for the mark,
    /// and a hand-off refuses a source with no SHA-256 recorded).
    package func digested() -> Job {
        guard sourceSHA256 == nil else { return self }
        var job = self
        if let file { job.conversion = conversion.digested(try? SourceDigest.hex(of: file.byteSource)) }
        else if let bytes = conversion.bytes { job.conversion = conversion.digested(SourceDigest.hex(of: bytes)) }
        return job
    }

    /// The same job, leaving out one more image.
    package func omitting(_ image: OmittedImage) -> Job {
        var job = self
        job.conversion = conversion.omitting(image)
        return job
    }

    package static func == (a: Job, b: Job) -> Bool {
        a.conversion == b.conversion && a.reservation === b.reservation && a.replacesExisting == b.replacesExisting
            && a.recordedOutputs == b.recordedOutputs && a.sourceIdentity == b.sourceIdentity
    }
}
