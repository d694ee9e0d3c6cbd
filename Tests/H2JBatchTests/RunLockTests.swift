import Foundation
import H2JTestSupport
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JSupport

@Suite("Run lock: one run at a time")
struct RunLockTests {
    @Test("A second taker is told who holds the lock; once it is released, the next one gets it")
    func busyThenFree() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("state.db.lock")
        var first: RunLock? = try RunLock(path: path, wait: nil)
        do {
            _ = try RunLock(path: path, wait: nil)
            Issue.record("a second lock was granted")
        } catch let busy as RunLock.Busy {
            #expect(busy.holder.hasPrefix("pid \(getpid()), since 20"), "\(busy.holder)")
            #expect(busy.description.hasPrefix("another run (pid \(getpid()), since "))
            #expect(busy.description.hasSuffix(") holds the lock on \(path)"))
        }
        withExtendedLifetime(first) {}
        first = nil
        _ = try RunLock(path: path, wait: nil)
    }

    @Test("A directory is locked as itself (no file is added to it), and the holder is named")
    func directoryLock() throws {
        let scratch = TemporaryDirectory()
        let holder = try RunLock(path: scratch.path, wait: nil)
        #expect(throws: RunLock.Busy.self) { _ = try RunLock(path: scratch.path, wait: nil) }
        #expect(scratch.files().isEmpty)
        let directory = open(scratch.path, O_RDONLY)
        defer { close(directory) }
        #expect(RunLock.holder(of: directory).hasPrefix("pid \(getpid())"))
        withExtendedLifetime(holder) {}
    }

    @Test("--wait: a taker waits until the holder lets go, or gives up after the time given")
    func waits() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("x.lock")
        nonisolated(unsafe) var holder: RunLock? = try RunLock(path: path, wait: nil)
        #expect(throws: RunLock.Busy.self) { _ = try RunLock(path: path, wait: 0.3) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { holder = nil }
        let started = Date()
        _ = try RunLock(path: path, wait: 30)
        #expect(Date().timeIntervalSince(started) < 25)
        withExtendedLifetime(holder) {}
    }
}
