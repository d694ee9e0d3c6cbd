import Foundation
import H2JTestSupport
import Testing

/// Issue #19, acceptance a: a source changed in the windows a hand-off must cover is
/// never lost. The run is paused there through the test-only rendezvous
/// `HEIC2JPG_TEST_PAUSE` (ARCHITECTURE.md, "The verified hand-off"), so every trial hits
/// its window; without the proof in `ProvedSource` each trial loses the newest photo.
@Suite("End to end: a source changed during its hand-off is never lost",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
struct HandOffRaceEndToEndTests {
    /// How the test changes each source, and where the run is paused for it.
    enum Change: String, CaseIterable, CustomTestStringConvertible {
        /// A new file written beside it and renamed over it, while its conversion runs
        /// (the worker has read the source and waits for its output file).
        case renamedWhileConverting
        /// Rewritten in place, same size, after its output was published and verified.
        case rewrittenInPlace
        /// The same, its mtime (and atime) put back to the nanosecond.
        case rewrittenKeepingMtime

        var point: String { self == .renamedWhileConverting ? "converting" : "handing-off" }
        var testDescription: String { rawValue }
    }

    static let trials = 20

    /// The sample with one byte of its XMP padding made a newline: a valid photo of the
    /// same size whose bytes are its own for each `variant`.
    static func photo(variant: Int) throws -> [UInt8] {
        var bytes = try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic")
        let padding = try #require(bytes.firstRange(of: Array("</x:xmpmeta>".utf8))).upperBound + 2
        #expect(bytes[padding + variant] == UInt8(ascii: " "))
        bytes[padding + variant] = UInt8(ascii: "\n")
        return bytes
    }

    @Test("20 trials each: replaced by rename while converting, rewritten in place (same size; and with its mtime put back) before the hand-off, under --delete-source, --move-source and --delete-source --no-mark: the changed source is kept as source-changed, converted and handed off by the next run, and no newest photo is lost",
          arguments: Change.allCases, ["--delete-source", "--move-source", "--delete-source --no-mark"])
    func changedSourceIsNeverLost(change: Change, handOff: String) throws {
        let scratch = TemporaryDirectory()
        let names = (0..<Self.trials).map { "p\(String(format: "%02d", $0)).heic" }
        for (i, name) in names.enumerated() { _ = scratch.file("in/\(name)", try Self.photo(variant: i)) }
        let newest = try (0..<Self.trials).map { try Self.photo(variant: 100 + $0) }
        let done = scratch.sub("done")
        let state = scratch.sub("state.db")
        // With --no-mark or without, the parent hashes the source itself: the proof is the same.
        let arguments = ["-j", "1", "--state", state] + handOff.split(separator: " ").map(String.init)
            + (handOff == "--move-source" ? [done] : [])
            + ["-o", scratch.sub("out"), scratch.sub("in")]
        let pause = scratch.sub("pause")
        try FileManager.default.createDirectory(atPath: pause, withIntermediateDirectories: true)
        #expect(mkfifo(pause + "/reached", 0o600) == 0 && mkfifo(pause + "/resume", 0o600) == 0)

        let run = try RunningTool(arguments + ["--report", scratch.sub("r1.jsonl")],
                                  environment: ["HEIC2JPG_TEST_PAUSE": "\(change.point):\(pause)"])
        let channel = PauseChannel(pause, run: run)
        var changed = 0
        for _ in 0..<Self.trials {
            guard let path = channel.nextSource() else { break }
            let index = try #require(names.firstIndex(of: (path as NSString).lastPathComponent))
            try Self.apply(change, newest[index], at: path)
            changed += 1
            channel.resume()
        }
        #expect(changed == Self.trials, "the run paused \(changed) times, not \(Self.trials)")
        #expect(run.wait() == 0)

        // After the run: every newest photo is still at its name, or converted with its hash recorded.
        let digests = try Self.digests(newest, scratch)
        func lost() throws -> [String] {
            let recorded = Dictionary(try StateEndToEndTests.query(state, "SELECT cast(path AS text), sha256 FROM sources").map {
                let fields = $0.split(separator: "|").map(String.init)
                return (fields[0], fields.count > 1 ? fields[1] : "")
            }) { first, _ in first }
            return names.enumerated().filter { i, name in
                let inPlace = FileManager.default.contents(atPath: scratch.sub("in/\(name)")).map { [UInt8]($0) == newest[i] } ?? false
                return !inPlace && recorded[name] != digests[i]
            }.map(\.element)
        }
        let lostAfterRun = try lost()
        let report = try ReportFile(scratch.sub("r1.jsonl"))
        let keptAsChanged = names.filter { (report.bySource[$0]?["warningCodes"] as? [String])?.contains("source-changed") == true }
        #expect(lostAfterRun.isEmpty, "newest photos lost: \(lostAfterRun)")
        #expect(keptAsChanged.count == Self.trials, "kept as source-changed: \(keptAsChanged.count)")
        let status = try Tool.run(["status", "--json", state])
        let statusKept = (try JSONSerialization.jsonObject(with: Data(status.stdoutText.utf8)) as? [String: Any])?["kept"] as? [[String: Any]]
        #expect(statusKept?.count == Self.trials && statusKept?.allSatisfy { ($0["reason"] as? String)?.hasPrefix("source-changed: ") == true } == true,
                "\(status.stdoutText)")

        // The next run converts each changed source again, whatever its size, mtime and inode say, and hands it off.
        let rerun = try Tool.run(arguments + ["--report", scratch.sub("r2.jsonl")])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let lostAfterRerun = try lost()
        #expect(lostAfterRerun.isEmpty, "newest photos lost after the rerun: \(lostAfterRerun)")
        let updated = try ReportFile(scratch.sub("r2.jsonl"))
        let handedOff = names.filter { updated.bySource[$0]?["status"] as? String == "updated" && updated.bySource[$0]?["handOff"] != nil }
        #expect(handedOff.count == Self.trials, "\(rerun.stderr)")
        for (i, name) in names.enumerated() {
            #expect(!scratch.exists("in/\(name)"))
            if handOff == "--move-source" {
                #expect(FileManager.default.contents(atPath: done + "/" + name).map { [UInt8]($0) == newest[i] } == true, "\(name)")
            }
        }
        #expect(try StateEndToEndTests.query(state, "SELECT count(*) FROM sources WHERE kept IS NOT NULL OR handed_off IS NULL") == ["0"])
        print("hand-off race \(change.rawValue) \(handOff): \(changed) trials, \(keptAsChanged.count) kept as source-changed, "
              + "\(lostAfterRun.count) lost after the run, \(handedOff.count) converted again and handed off by the rerun, "
              + "\(lostAfterRerun.count) lost after it")
    }

    /// Changes the source at `path` to `bytes` as `change` says.
    static func apply(_ change: Change, _ bytes: [UInt8], at path: String) throws {
        switch change {
        case .renamedWhileConverting:
            #expect(FileManager.default.createFile(atPath: path + ".new", contents: Data(bytes)))
            #expect(rename(path + ".new", path) == 0)
        case .rewrittenInPlace, .rewrittenKeepingMtime:
            var before = stat()
            #expect(stat(path, &before) == 0 && Int(before.st_size) == bytes.count)
            let fd = open(path, O_WRONLY)
            #expect(fd >= 0)
            #expect(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
            if change == .rewrittenKeepingMtime {
                #expect(futimens(fd, [before.st_atim, before.st_mtim]) == 0)
            }
            close(fd)
            var after = stat()
            #expect(stat(path, &after) == 0 && after.st_size == before.st_size && after.st_ino == before.st_ino)
            if change == .rewrittenKeepingMtime {
                #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
            }
        }
    }

    /// The SHA-256 (hex) of each of `contents`, by sha256sum.
    static func digests(_ contents: [[UInt8]], _ scratch: TemporaryDirectory) throws -> [String] {
        let paths = contents.enumerated().map { scratch.file("newest/\($0.offset).heic", $0.element) }
        let outcome = try Tool.run(paths, executable: "/usr/bin/sha256sum")
        return outcome.stdoutText.split(separator: "\n").map { String($0.prefix(64)) }
    }
}

/// The test's side of `HEIC2JPG_TEST_PAUSE`: the FIFO `reached`, held open for reading
/// for the whole run, gives the source the run paused at; opening and closing `resume`
/// lets it go on. Neither call blocks past the run's end.
final class PauseChannel {
    private let directory: String
    private let run: RunningTool
    private let reached: Int32
    private var pending: [UInt8] = []

    init(_ directory: String, run: RunningTool) {
        self.directory = directory
        self.run = run
        reached = open(directory + "/reached", O_RDONLY | O_NONBLOCK)
    }

    deinit { close(reached) }

    /// The next source the run paused at; nil when the run ended first.
    func nextSource() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = read(reached, &buffer, buffer.count)
            if count > 0 {
                pending += buffer[..<count]
            } else {
                guard run.process.isRunning else { return nil }
                usleep(1000)
            }
        }
    }

    /// Lets the paused run go on.
    func resume() {
        while run.process.isRunning {
            let fd = open(directory + "/resume", O_WRONLY | O_NONBLOCK)
            if fd >= 0 {
                close(fd)
                return
            }
            usleep(1000)
        }
    }
}
