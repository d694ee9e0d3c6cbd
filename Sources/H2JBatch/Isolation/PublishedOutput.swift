#if canImport(Glibc)
import Glibc
#endif
import H2JConvert
import H2JOutputPlan
import H2JSupport

/// Outputs written by this process (`compare`, and the parent's publishing of what a
/// worker wrote): a path through the run's publisher (atomically, after the claims
/// before the job's), `-` staged in a temp file and then copied to `standardOutput`
/// (`StagedStreamWriter`).
package struct PublishedOutput {
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
        case .path:
            let primary = name == .primary
            return try publisher.write(job.conversion.path(of: name), for: job.source.display, reservation: primary ? job.reservation : nil,
                                       replacing: primary && job.replacesExisting, attributes: attributes, body)
        case .standardStream:
            guard name == .primary else { throw WriteError(path: "-", reason: "standard output takes one image") }
            return try StagedStreamWriter.write(to: standardOutput, body)
        }
    }
}
