#if canImport(Glibc)
import Glibc
#endif

/// Where the parent publishes what a worker wrote (`JobOutputs`): a path through the
/// run's publisher (atomically, after the claims before the job's), `-` staged in a temp
/// file and then copied to `standardOutput` (`StagedStreamWriter`).
package struct PublishedOutput {
    let publisher: OutputPublisher
    /// Where an output of `-` goes: the process's stdout, or for `compare` an unlinked
    /// temporary file (`MemoryOutputFile`) that is read back into memory.
    let standardOutput: Int32

    package init(publisher: OutputPublisher, standardOutput: Int32 = STDOUT_FILENO) {
        self.publisher = publisher
        self.standardOutput = standardOutput
    }
}
