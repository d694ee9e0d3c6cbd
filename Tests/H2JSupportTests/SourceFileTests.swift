import Foundation
import H2JTestSupport
import Testing
@testable import H2JSupport

/// A source is opened without ever blocking, and only a regular file is read.
@Suite("Opening sources")
struct SourceFileTests {
    /// Opens `path` on another thread, so a regression that blocks fails the test instead
    /// of hanging it: after 10 s the FIFO's writing end is opened, which frees the open.
    func open(_ path: String) -> Result<SourceFile, SourceError> {
        nonisolated(unsafe) var result: Result<SourceFile, SourceError>?
        let done = DispatchSemaphore(value: 0)
        Thread {
            result = Result { () throws(SourceError) in try SourceFile(path: path) }
            done.signal()
        }.start()
        if done.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("opening \(path) blocked")
            let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK)
            done.wait()
            if writer >= 0 { close(writer) }
        }
        return result!
    }

    @Test("A FIFO with no writer, a socket, a device and a directory fail at once, naming their type")
    func notRegular() throws {
        let dir = TemporaryDirectory()
        let cases = [
            (dir.fifo("x.heic"), "not a regular file: a FIFO", S_IFIFO),
            (dir.socket("s.heic"), "not a regular file: a socket", S_IFSOCK),
            ("/dev/zero", "not a regular file: a character device", S_IFCHR),
            (dir.symlink("z.heic", to: "/dev/zero"), "not a regular file: a character device", S_IFCHR),
            (dir.directory("d.heic"), "not a regular file: a directory", S_IFDIR),
        ]
        for (path, reason, type) in cases {
            guard case .failure(let error) = open(path) else {
                Issue.record("\(path) was opened")
                continue
            }
            #expect(error.description == reason, "\(path)")
            #expect(error.fileType == type, "\(path)")
        }
        let missing = open(dir.sub("gone.heic"))
        guard case .failure(let error) = missing else { Issue.record("a missing file was opened"); return }
        #expect(error.fileType == nil && error.errno == ENOENT)
        #expect(SourceError.notRegular(S_IFIFO, throughLink: true).description == "not a regular file: a symlink to a FIFO")
    }

    @Test("A regular file is opened for blocking reads, also through a symlink")
    func regular() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("a.heic", [1, 2, 3])
        for name in [path, dir.symlink("l.heic", to: path)] {
            let file = try open(name).get()
            #expect(try file.readAll() == [1, 2, 3])
            #expect(fcntl(file.fd, F_GETFL) & O_NONBLOCK == 0, "O_NONBLOCK is cleared")
        }
    }
}
