#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// An unlinked temporary file (`tmpfile()`) that one conversion writes its JPEG to, and
/// that is then read back into memory: `compare` runs the converter's own output path
/// (`Converter.standardOutput`) without publishing a file.
///
/// The file has no name from the start and is closed on deinit, so nothing is left
/// behind, even after a crash. It is never fsynced: its pages stay in the page cache.
final class MemoryOutputFile {
    private let file: UnsafeMutablePointer<FILE>

    init() throws(CompareError) {
        guard let file = tmpfile() else { throw CompareError("cannot create a temporary file: \(POSIX.lastError())") }
        self.file = file
    }

    deinit { fclose(file) }

    /// The descriptor to write to.
    var descriptor: Int32 { fileno(file) }

    /// Everything written to `descriptor`, whatever its current offset.
    func contents() throws(CompareError) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw CompareError("cannot stat the temporary file: \(POSIX.lastError())") }
        let size = Int(info.st_size)
        do {
            return try FileByteSource(fd: descriptor, size: size).read(at: 0, count: size)
        } catch {
            throw CompareError("cannot read the temporary file back: \(error)")
        }
    }
}
