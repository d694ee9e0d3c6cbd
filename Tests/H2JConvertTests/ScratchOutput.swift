import Glibc
import H2JConvert
import H2JJob
import H2JOutputPlan
import H2JSupport

/// An `OutputDestination` for tests that run the converter in-process: each output is
/// written straight to its path, opened for reading too as a temp file is (a Multi-Picture
/// file reads its header back); no claims, no atomic publish: those are the batch's.
struct ScratchOutput: OutputDestination {
    func write(_ job: ConversionJob, name: OutputName, attributes: OutputAttributes?,
               _ body: (Int32) throws -> Void) throws -> WrittenOutput {
        let path = job.path(of: name)
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError.system(path, "cannot create") }
        defer { close(fd) }
        try body(fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw WriteError.system(path, "fstat") }
        return WrittenOutput(bytes: Int(info.st_size))
    }
}
