import Foundation
import H2JJob
import Synchronization
import Testing
import H2JDigest
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JSupport
import H2JTestSupport

@Suite("Output publisher: claims, atomic publish, hooks, interruption")
struct OutputPublisherTests {
    /// The file's bytes, or nil when it does not exist.
    func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    @Test("A write appears whole, creates its directories, and leaves no temp file")
    func publishes() throws {
        let dir = TemporaryDirectory()
        let publisher = OutputPublisher()
        let target = dir.sub("a/b/out.jpg")
        let written = try publisher.write(target, for: "in.heic", reservation: publisher.reserve(target, for: "in.heic"),
                                          attributes: nil) { fd in try POSIX.writeAll([1, 2, 3], to: fd, path: target) }
        #expect(written == WrittenOutput(bytes: 3, sha256: "039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81"))
        #expect(contents(target) == [1, 2, 3])
        #expect(dir.files() == ["a/b/out.jpg"])
    }

    @Test("A file that appears at the path before the rename is never replaced, unless the planner said it is ours")
    func appearedDuringConversion() throws {
        let dir = TemporaryDirectory()
        let target = dir.sub("out.jpg")
        // A HEIF copied to the output path while the conversion ran.
        let arrival: [UInt8] = Array("a HEIF that arrived meanwhile".utf8)
        let publisher = OutputPublisher(hooks: PublishHooks(willPublish: { output, _ in
            _ = FileManager.default.createFile(atPath: output, contents: Data(arrival))
        }))
        #expect(throws: ForeignOutputError(output: target)) {
            try publisher.write(target, for: "in.heic", reservation: publisher.reserve(target, for: "in.heic"),
                                attributes: nil) { fd in try POSIX.writeAll([1, 2, 3], to: fd, path: target) }
        }
        #expect(contents(target) == arrival)
        #expect(dir.files() == ["out.jpg"], "no temp file left")
        #expect(ErrorCode(classifying: ForeignOutputError(output: target)) == .outputNotOurs)
        let replacing = try OutputPublisher().write(target, for: "in.heic", reservation: nil, replacing: true,
                                            attributes: nil) { fd in try POSIX.writeAll([1, 2, 3], to: fd, path: target) }
        #expect(replacing.bytes == 3 && contents(target) == [1, 2, 3])
    }

    @Test("--on-conflict suffix: a file that appears before the rename moves the output to the first free NAME-N.jpg")
    func appearedWhileSuffixing() throws {
        let dir = TemporaryDirectory()
        let target = dir.sub("out.jpg")
        let arrival: [UInt8] = Array("a camera JPEG that arrived meanwhile".utf8)
        dir.file("out-1.jpg", [9])  // taken before the run
        let publisher = OutputPublisher(hooks: PublishHooks(willPublish: { output, _ in
            if output == target { _ = FileManager.default.createFile(atPath: output, contents: Data(arrival)) }
        }))
        let other = publisher.reserve(dir.sub("out-2.jpg"), for: "other.heic")  // claimed by another source of the run
        let staged = try publisher.stage(target, attributes: nil) { fd in try POSIX.writeAll([1, 2, 3], to: fd, path: target) }
        let published = try publisher.publish(staged, for: "in.heic", reservation: publisher.reserve(target, for: "in.heic"),
                                              suffixing: true)
        #expect(published.path == dir.sub("out-3.jpg") && published.written.bytes == 3)
        #expect(contents(target) == arrival && contents(dir.sub("out-1.jpg")) == [9] && contents(dir.sub("out-3.jpg")) == [1, 2, 3])
        #expect(publisher.isClaimed(dir.sub("out-3.jpg")))
        other.settle(published: false)
        #expect(dir.files() == ["out-1.jpg", "out-3.jpg", "out.jpg"], "no temp file left")
    }

    @Test("--on-conflict suffix with every name taken fails without recommending the option that was given")
    func everySuffixTaken() throws {
        let dir = TemporaryDirectory()
        let target = dir.sub("out.jpg")
        // Each name the publisher tries is taken just before its rename.
        let publisher = OutputPublisher(hooks: PublishHooks(willPublish: { output, _ in
            _ = FileManager.default.createFile(atPath: output, contents: Data([7]))
        }))
        let staged = try publisher.stage(target, attributes: nil) { fd in try POSIX.writeAll([1], to: fd, path: target) }
        let error = #expect(throws: ForeignOutputError.self) {
            try publisher.publish(staged, for: "in.heic", reservation: nil, suffixing: true)
        }
        #expect(error == ForeignOutputError(output: target, suffixesTaken: true))
        #expect(error?.description == "\(target) exists and was not written by heic2jpg; it is left alone, and --on-conflict suffix found every name up to -999 taken")
        #expect(!(ForeignOutputError(output: target).description.contains("taken")))
        #expect(dir.files().count == 1000 && dir.files().allSatisfy { contents(dir.sub($0)) == [7] }, "no temp file left, nothing replaced")
    }

    @Test("renameNoReplace: moves onto a free name, refuses an existing one with EEXIST and leaves both")
    func renameNoReplace() {
        let dir = TemporaryDirectory()
        let a = dir.file("a", [1]), b = dir.file("b", [2])
        #expect(POSIX.renameNoReplace(a, b) == EEXIST)
        #expect(contents(a) == [1] && contents(b) == [2])
        #expect(POSIX.renameNoReplace(a, dir.sub("c")) == 0)
        #expect(contents(dir.sub("c")) == [1] && contents(a) == nil)
    }

    @Test("Staged stdout: a complete output is copied whole; a failed one puts nothing on the stream")
    func stagedStream() throws {
        let dir = TemporaryDirectory()
        let streamPath = dir.sub("stream")
        let stream = open(streamPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(stream) }
        struct Cut: Error {}
        #expect(throws: Cut.self) {
            try StagedStreamWriter.write(to: stream) { fd in
                try POSIX.writeAll([UInt8](repeating: 7, count: 589_824), to: fd, path: "-")
                throw Cut()
            }
        }
        #expect(contents(streamPath) == [])
        let big = (0..<(3 * StagedStreamWriter.chunkBytes + 5)).map { UInt8(truncatingIfNeeded: $0) }
        let written = try StagedStreamWriter.write(to: stream) { fd in try POSIX.writeAll(big, to: fd, path: "-") }
        #expect(written == WrittenOutput(bytes: big.count, sha256: SHA256.hex(SHA256.digest(big))))
        #expect(contents(streamPath) == big)
        #expect(dir.files() == ["stream"])
    }

    @Test("A body that throws leaves nothing behind, and the error comes through")
    func failedBodyLeavesNothing() {
        let dir = TemporaryDirectory()
        let publisher = OutputPublisher()
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            _ = try publisher.write(dir.sub("out.jpg"), for: "in", reservation: nil, attributes: nil) { fd in
                try POSIX.writeAll([9], to: fd, path: "out.jpg")
                throw Boom()
            }
        }
        #expect(dir.files() == [])
    }

    @Test("Reserved in walk order: the second claimant waits and loses only when the first published")
    func reservationsDecideInOrder() throws {
        let dir = TemporaryDirectory()
        let publisher = OutputPublisher()
        let target = dir.sub("out.jpg")
        let first = publisher.reserve(target, for: "a.heic")
        let second = publisher.reserve(target, for: "a.HEIC")
        #expect(second.previous === first)
        #expect(second.owner == "a.heic", "messages name the first claimant")
        // The first fails: the second may publish.
        first.settle(published: false)
        _ = try publisher.write(target, for: "a.HEIC", reservation: second, attributes: nil) { fd in
            try POSIX.writeAll([2], to: fd, path: target)
        }
        second.settle(published: true)
        // A third claimant after a published one collides and writes nothing.
        let third = publisher.reserve(target, for: "a.heif")
        #expect(throws: CollisionError(output: target, owner: "a.heic")) {
            _ = try publisher.write(target, for: "a.heif", reservation: third, attributes: nil) { fd in
                try POSIX.writeAll([3], to: fd, path: target)
            }
        }
        #expect(contents(target) == [2])
        #expect(dir.files() == ["out.jpg"])
    }

    @Test("Claims are kept per output directory and released with it; a released directory forgets them")
    func claimsPerDirectory() {
        let publisher = OutputPublisher()
        for i in 0..<50 { publisher.reserve("out/a/\(i).jpg", for: "a/\(i).heic").settle(published: true) }
        publisher.reserve("out/b/x.jpg", for: "b/x.heic").settle(published: true)
        #expect(publisher.claimCount == 51)
        publisher.releaseClaims(inDirectory: "out/a/")
        #expect(publisher.claimCount == 1, "a trailing slash names the same directory")
        #expect(!publisher.isClaimed("out/a/7.jpg") && publisher.isClaimed("out/b/x.jpg"))
        #expect(publisher.reserve("out/a/7.jpg", for: "again.heic").previous == nil)
    }

    @Test("A later claimant blocks until the earlier one settles")
    func laterClaimantWaits() throws {
        let dir = TemporaryDirectory()
        let publisher = OutputPublisher()
        let target = dir.sub("out.jpg")
        let first = publisher.reserve(target, for: "first")
        let second = publisher.reserve(target, for: "second")
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? publisher.write(target, for: "second", reservation: second, attributes: nil) { fd in
                try POSIX.writeAll([2], to: fd, path: target)
            }
            done.signal()
        }
        // The second has written its temp file and now waits on the first's outcome.
        #expect(done.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
        #expect(contents(target) == nil)
        first.settle(published: false)
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(contents(target) == [2])
    }

    @Test("Unreserved paths are claimed at publish time: first come, and a second claimant is refused")
    func claimsAtPublishTime() throws {
        let dir = TemporaryDirectory()
        let publisher = OutputPublisher()
        let target = dir.sub("photo-2.jpg")
        _ = try publisher.write(target, for: "photo.heic", reservation: nil, attributes: nil) { fd in
            try POSIX.writeAll([1], to: fd, path: target)
        }
        #expect(throws: CollisionError(output: target, owner: "photo.heic")) {
            _ = try publisher.write(target, for: "photo-2.heic", reservation: nil, attributes: nil) { fd in
                try POSIX.writeAll([2], to: fd, path: target)
            }
        }
        // A reserved path is not free for a publish-time claim either.
        let reserved = dir.sub("other.jpg")
        _ = publisher.reserve(reserved, for: "other.heic")
        #expect(throws: CollisionError(output: reserved, owner: "other.heic")) {
            _ = try publisher.write(reserved, for: "x.heic", reservation: nil, attributes: nil) { _ in }
        }
        #expect(dir.files() == ["photo-2.jpg"])
    }

    @Test("Hooks: willPublish sees the complete output and may veto; didPublish gets the size")
    func hooks() throws {
        let dir = TemporaryDirectory()
        let seen = Mutex<[String]>([])
        struct Veto: Error {}
        let publisher = OutputPublisher(hooks: PublishHooks(
            willPublish: { output, source in
                seen.withLock { $0.append("will \(Path.lastComponent(output)) \(source)") }
                if source == "vetoed" { throw Veto() }
            },
            didPublish: { output, source, bytes in seen.withLock { $0.append("did \(Path.lastComponent(output)) \(source) \(bytes)") } }))
        _ = try publisher.write(dir.sub("ok.jpg"), for: "good", reservation: nil, attributes: nil) { fd in
            try POSIX.writeAll([1, 2], to: fd, path: "ok.jpg")
        }
        #expect(throws: Veto.self) {
            _ = try publisher.write(dir.sub("no.jpg"), for: "vetoed", reservation: nil, attributes: nil) { fd in
                try POSIX.writeAll([1], to: fd, path: "no.jpg")
            }
        }
        #expect(seen.withLock { $0 } == ["will ok.jpg good", "did ok.jpg good 2", "will no.jpg vetoed"])
        #expect(dir.files() == ["ok.jpg"], "a vetoed output is not published and its temp file is gone")
        // A vetoed publish-time claim is released: the path can still be published.
        _ = try publisher.write(dir.sub("no.jpg"), for: "good", reservation: nil, attributes: nil) { _ in }
        #expect(dir.files() == ["no.jpg", "ok.jpg"])
    }

    @Test("After removeAllAndSeal, open temp files are gone and nothing more is published")
    func sealing() throws {
        let dir = TemporaryDirectory()
        let publisher = OutputPublisher()
        let target = dir.sub("out.jpg")
        #expect(throws: PublishInterrupted(path: target)) {
            _ = try publisher.write(target, for: "in", reservation: nil, attributes: nil) { fd in
                try POSIX.writeAll([1], to: fd, path: target)
                #expect(dir.files().count == 1 && OutputPublisher.isTempName(dir.files()[0]))
                publisher.removeAllAndSeal()
                #expect(dir.files() == [], "the signal handler removed the open temp file")
            }
        }
        #expect(throws: PublishInterrupted(path: target)) {
            _ = try publisher.write(target, for: "in", reservation: nil, attributes: nil) { _ in }
        }
        #expect(dir.files() == [])
    }

    @Test("Publishing into a directory removes the temp files of dead local processes, and only those")
    func orphanSweep() throws {
        let dir = TemporaryDirectory()
        let dead: pid_t = 4_194_303  // above any default pid_max, so no such process
        #expect(kill(dead, 0) != 0 && errno == ESRCH)
        let host = TempFileName.host
        let orphan = dir.file(".heic2jpg-\(host)-\(dead)-7.tmp", [1])
        let live = dir.file(".heic2jpg-\(host)-\(getppid())-1.tmp", [2])
        let otherHost = dir.file(".heic2jpg-\(host == "00000000" ? "00000001" : "00000000")-\(dead)-1.tmp", [3])
        let notOurs = dir.file(".heic2jpg-notes.txt", [4])
        let publisher = OutputPublisher()
        _ = try publisher.write(dir.sub("a.jpg"), for: "a.heic", reservation: nil, attributes: nil) { _ in }
        _ = try publisher.write(dir.sub("b.jpg"), for: "b.heic", reservation: nil, attributes: nil) { _ in }
        #expect(contents(orphan) == nil)
        #expect(contents(live) == [2] && contents(otherHost) == [3] && contents(notOurs) == [4])
        #expect(publisher.removedOrphans == 1, "swept once per directory")
        var summary = RunSummary()
        summary.tempFilesRemoved = 1
        #expect(summary.line.hasSuffix("; removed 1 temp file left by killed runs"))
    }

    @Test("A directory is swept when it is first planned into, even if nothing is written there; once")
    func sweepWithoutWriting() throws {
        let dir = TemporaryDirectory()
        let dead: pid_t = 4_194_303
        let orphan = dir.file("out/.heic2jpg-\(TempFileName.host)-\(dead)-1.tmp", [1])
        let publisher = OutputPublisher()
        publisher.sweepOrphans(in: dir.sub("out"))
        #expect(contents(orphan) == nil && publisher.removedOrphans == 1)
        dir.file("out/.heic2jpg-\(TempFileName.host)-\(dead)-2.tmp", [1])
        _ = try publisher.write(dir.sub("out/a.jpg"), for: "a.heic", reservation: nil, attributes: nil) { _ in }
        #expect(publisher.removedOrphans == 1, "swept once per directory")
        publisher.releaseClaims(inDirectory: dir.sub("out"))
        publisher.sweepOrphans(in: dir.sub("out"))
        #expect(publisher.removedOrphans == 2, "a released directory is swept again when planned into again")
    }

    @Test("Temp names are recognised, ordinary names are not")
    func tempNames() {
        #expect(OutputPublisher.isTempName(".heic2jpg-0a1b2c3d-123-4.tmp"))
        #expect(TempFileName.make(5).utf8.count <= 50 && OutputPublisher.isTempName(TempFileName.make(5)))
        #expect(!OutputPublisher.isTempName("IMG_1.jpg"))
        #expect(!OutputPublisher.isTempName(".hidden.jpg"))
        #expect(!OutputPublisher.isTempName(".x.heic2jpg-1-1.jpg"))
    }

    @Test("A path under a file is refused with the path named")
    func directoryInTheWay() throws {
        let dir = TemporaryDirectory()
        dir.file("blocker", [0])
        let publisher = OutputPublisher()
        #expect(throws: WriteError(path: dir.sub("blocker"), reason: "exists and is not a directory")) {
            _ = try publisher.write(dir.sub("blocker/out.jpg"), for: "in", reservation: nil, attributes: nil) { _ in }
        }
    }
}

/// Counts shared by the pool's jobs.
private final class Tally: Sendable {
    private let state = Mutex((running: 0, peak: 0, done: 0))

    func start() {
        state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
    }

    func finish() {
        state.withLock { $0.running -= 1; $0.done += 1 }
    }

    var peak: Int { state.withLock { $0.peak } }
    var done: Int { state.withLock { $0.done } }
}

@Suite("Worker pool: bounded, complete")
struct WorkerPoolTests {
    @Test("Every submitted job runs once, and never more than `workers` at a time")
    func boundedAndComplete() {
        let pool = WorkerPool(workers: 3)
        let tally = Tally()
        for _ in 0..<60 {
            pool.submit {
                tally.start()
                usleep(2_000)
                tally.finish()
            }
        }
        pool.waitForAll()
        let (done, peak) = (tally.done, tally.peak)
        #expect(done == 60)
        #expect(peak <= 3)
    }

    @Test("Two workers run two jobs at once: each waits for the other to start")
    func parallel() {
        let pool = WorkerPool(workers: 2)
        let first = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0)
        let met = Mutex(0)
        pool.submit {
            first.signal()
            if second.wait(timeout: .now() + .seconds(30)) == .success { met.withLock { $0 += 1 } }
        }
        pool.submit {
            second.signal()
            if first.wait(timeout: .now() + .seconds(30)) == .success { met.withLock { $0 += 1 } }
        }
        pool.waitForAll()
        let both = met.withLock { $0 }
        #expect(both == 2, "a pool of two that ran its jobs one after the other would leave each waiting")
    }

    @Test("submit blocks the producer while every worker is busy")
    func producerWaits() {
        let pool = WorkerPool(workers: 1)
        let release = DispatchSemaphore(value: 0)
        pool.submit { release.wait() }
        let submitted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            pool.submit {}
            submitted.signal()
        }
        #expect(submitted.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        release.signal()
        #expect(submitted.wait(timeout: .now() + .seconds(30)) == .success)
        pool.waitForAll()
    }
}
