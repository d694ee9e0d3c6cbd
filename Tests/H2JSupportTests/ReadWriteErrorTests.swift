import Foundation
import H2JTestSupport
import Testing
@testable import H2JSupport

/// Read and write failures say what happened and name the file, never "Success" or "fd N".
@Suite("Read and write errors")
struct ReadWriteErrorTests {
    @Test("A file that shrinks while being read: end of file at the offset, not 'Success'")
    func shrinkingFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("photo.heic", [UInt8](repeating: 7, count: 100))
        let file = try SourceFile(path: path)
        #expect(truncate(path, 10) == 0)
        #expect(throws: ReadError.endOfFile(offset: 10)) { try file.byteSource.read(at: 0, count: 100) }
        let error = #expect(throws: SourceError.self) { try file.prefix(100) }
        #expect(error?.description == "cannot read: the file ends at offset 10, before its stated size (it changed while being read)")
    }

    @Test("A failed pread keeps its errno; a range outside the file says where")
    func readFailures() throws {
        let dir = TemporaryDirectory()
        // A directory opens read-only (SourceFile refuses it), but pread on it fails with EISDIR.
        let directory = open(dir.path, O_RDONLY | O_CLOEXEC)
        defer { close(directory) }
        #expect(throws: ReadError.system(SystemError(errno: EISDIR))) {
            try FileByteSource(fd: directory, size: 10).read(at: 0, count: 10)
        }
        #expect(ReadError.system(SystemError(errno: EISDIR)).description == "Is a directory")
        #expect(throws: ReadError.outOfRange(offset: 8, count: 4, size: 10)) {
            try MemoryByteSource([UInt8](repeating: 0, count: 10)).read(at: 8, count: 4)
        }
        #expect(ReadError.outOfRange(offset: 8, count: 4, size: 10).description == "4 bytes at offset 8 lie outside the 10-byte file")
    }

    @Test("A write error names the output path and keeps the errno")
    func writeFailure() {
        let error = #expect(throws: WriteError.self) { try POSIX.writeAll([1, 2, 3], to: -1, path: "out/IMG_1.jpg") }
        #expect(error?.path == "out/IMG_1.jpg")
        #expect(error?.errno == EBADF)
        #expect(error?.description == "cannot write out/IMG_1.jpg: Bad file descriptor")
    }

    @Test("Reading to end of file collects every chunk")
    func readToEnd() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        let writer = Thread {
            try? POSIX.writeAll(bytes, to: writeEnd, path: "pipe")
            close(writeEnd)
        }
        writer.start()
        #expect(try POSIX.readToEnd(readEnd) == bytes)
        close(readEnd)
    }
}
