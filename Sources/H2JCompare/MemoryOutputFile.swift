#if canImport(Glibc)
import Glibc
#endif
import H2JBatch
import H2JJob
import H2JSupport

/// An unlinked temporary file (`tmpfile()`) that `compare`'s conversions write their
/// JPEGs to, one after another, each read back into memory and the file emptied
/// (`take`): compare runs the converter's own output path (the parent's copy of a
/// worker's `-o -` output, `StagedStreamWriter`) without publishing a file.
///
/// The file has no name from the start and is closed on deinit, so nothing is left
/// behind, even after a crash. It is never fsynced: its pages stay in the page cache.
final class MemoryOutputFile {
    private let file: UnsafeMutablePointer<FILE>

    init() throws(CompareError) {
        guard let file = tmpfile() else { throw CompareError("cannot create a temporary file: \(POSIX.lastError())") }
        self.file = file
        // No decoder process started later may inherit it.
        _ = fcntl(fileno(file), F_SETFD, FD_CLOEXEC)
    }

    deinit { fclose(file) }

    /// The descriptor to write to.
    var descriptor: Int32 { fileno(file) }

    /// Everything written to `descriptor`, whatever its current offset; the file is then
    /// empty again, for the next conversion.
    func take() throws(CompareError) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw CompareError("cannot stat the temporary file: \(POSIX.lastError())") }
        let size = Int(info.st_size)
        let bytes: [UInt8]
        do {
            bytes = try FileByteSource(fd: descriptor, size: size).read(at: 0, count: size)
        } catch {
            throw CompareError("cannot read the temporary file back: \(error)")
        }
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw CompareError("cannot empty the temporary file: \(POSIX.lastError())")
        }
        return bytes
    }
}
