import Foundation
import H2JTestSupport
import Testing
@testable import H2JBatch

/// The watch's wait on each file, driven with made-up clock times over real files.
@Suite("Settling files")
struct SettlingFilesTests {
    @Test("A closed file is taken once it has held still for the settle time, not before")
    func closedFileSettles() {
        let scratch = TemporaryDirectory()
        let path = scratch.file("a.heic", [1, 2, 3])
        var settling = SettlingFiles(settleSeconds: 1)
        settling.touch(path, root: scratch.path, relativePath: "a.heic", now: 10)
        #expect(settling.nextDeadline == 11)
        #expect(settling.settled(now: 10.9).isEmpty)
        #expect(settling.settled(now: 11).map(\.path) == [path])
        #expect(settling.isEmpty, "taken once")
    }

    @Test("Written to after its close, a file waits for the next close, however long the writer pauses; then it settles again")
    func reopenedFileWaitsForItsClose() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.file("slow.heic", [])
        var settling = SettlingFiles(settleSeconds: 1)
        settling.touch(path, root: scratch.path, relativePath: "slow.heic", now: 0)
        settling.written(path, root: scratch.path, relativePath: "slow.heic", now: 0.1)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(settling.isBeingWritten(path))
        #expect(settling.nextDeadline == nil, "no deadline while a writer holds it")
        #expect(settling.settled(now: 1000).isEmpty, "a paused writer's half file is never taken")
        settling.found(path, root: scratch.path, relativePath: "slow.heic", now: 1000)
        #expect(settling.isBeingWritten(path), "a walk meeting it changes nothing")
        settling.touch(path, root: scratch.path, relativePath: "slow.heic", now: 1001)
        #expect(!settling.isBeingWritten(path))
        #expect(settling.settled(now: 1001.5).isEmpty)
        #expect(settling.settled(now: 1002).map(\.path) == [path])
    }

    @Test("A file written to with no close seen (opened before the watch) waits for its close too")
    func writtenWithoutCloseWaits() {
        let scratch = TemporaryDirectory()
        let path = scratch.file("open.heic", [1])
        var settling = SettlingFiles(settleSeconds: 1)
        settling.written(path, root: scratch.path, relativePath: "open.heic", now: 0)
        #expect(settling.settled(now: 100).isEmpty)
        settling.touch(path, root: scratch.path, relativePath: "open.heic", now: 100)
        #expect(settling.settled(now: 101).map(\.path) == [path])
    }

    @Test("A file that changed since last seen waits again; one that went away is dropped")
    func changedAndGone() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.file("b.heic", [1])
        let gone = scratch.file("c.heic", [1])
        var settling = SettlingFiles(settleSeconds: 1)
        settling.touch(path, root: scratch.path, relativePath: "b.heic", now: 0)
        settling.touch(gone, root: scratch.path, relativePath: "c.heic", now: 0)
        try Data([1, 2]).write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: gone)
        #expect(settling.settled(now: 1).isEmpty)
        #expect(settling.count == 1)
        #expect(settling.settled(now: 2).map(\.path) == [path])
    }
}
