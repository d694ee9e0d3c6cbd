import Foundation
import H2JTestSupport
import Testing

/// Decoders run in worker processes: whatever happens to one (a crash, a hang, a memory
/// limit), exactly its file fails with a reason that says so, and the batch goes on.
@Suite("End to end: isolated decoders")
struct IsolationEndToEndTests {
    /// `count` copies of a Sample in `in/`, and the run's arguments for them.
    static func batch(_ scratch: TemporaryDirectory, count: Int, extra: [String] = []) throws -> [String] {
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic")))
        for i in 0..<count { scratch.file("in/p\(String(format: "%03d", i)).heic", photo) }
        return ["-j", "1", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl")] + extra + [scratch.sub("in")]
    }

    /// Stops the run's worker as soon as it exists, so whatever file it holds cannot
    /// finish, then `act`s on it.
    static func catchWorker(_ run: RunningTool, _ act: (Int32) -> Void) throws {
        let worker = try #require(run.firstWorker(), "no worker process appeared")
        kill(worker, SIGSTOP)
        act(worker)
    }

    @Test("A worker killed by SIGSEGV fails exactly the file it held, naming the signal; the batch goes on with a new worker")
    func crash() throws {
        let scratch = TemporaryDirectory()
        // Paused where the worker has read its source and waits for its output file, so
        // the signal comes while it holds a file (an idle worker's death fails none).
        let pause = scratch.sub("pause")
        try FileManager.default.createDirectory(atPath: pause, withIntermediateDirectories: true)
        #expect(mkfifo(pause + "/reached", 0o600) == 0 && mkfifo(pause + "/resume", 0o600) == 0)
        let run = try RunningTool(try Self.batch(scratch, count: 30), environment: ["HEIC2JPG_TEST_PAUSE": "converting:\(pause)"])
        let channel = PauseChannel(pause, run: run)
        let held = try #require(channel.nextSource(), "the first conversion")
        let worker = try #require(run.workers.first)
        kill(worker, SIGSEGV)
        channel.resume()
        while channel.nextSource() != nil { channel.resume() }
        #expect(run.wait() == 1)
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let failed = report.entries("failed")
        try #require(failed.count == 1, "\(failed)")
        #expect(failed.keys.first == (held as NSString).lastPathComponent, "the file it held")
        let failure = try #require(failed.values.first)
        #expect(failure["errorCode"] as? String == "decoder-crashed")
        #expect((failure["reason"] as? String)?.hasPrefix("decoder crashed: SIGSEGV") == true, "\(failure)")
        #expect(report.entries("converted").count == 29)
        #expect(report.summary?["failed"] as? Int == 1, "the run ends with its summary")
        #expect(scratch.files("out").count == 29, "no temp file, no partial output: \(scratch.files("out"))")
    }

    @Test("A file past --timeout fails as timed-out and its stopped worker is killed; the others convert")
    func timeout() throws {
        let scratch = TemporaryDirectory()
        let run = try RunningTool(try Self.batch(scratch, count: 30, extra: ["--timeout", "1"]))
        try Self.catchWorker(run) { _ in }
        #expect(run.wait() == 1)
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let failed = report.entries("failed")
        try #require(failed.count == 1, "\(failed)")
        let failure = try #require(failed.values.first)
        #expect(failure["errorCode"] as? String == "timed-out")
        #expect((failure["reason"] as? String)?.hasPrefix("timed out after 1 s") == true, "\(failure)")
        #expect(report.entries("converted").count == 29)
        #expect(scratch.files("out").count == 29)
    }

    @Test("Signalled, the run kills its workers: none outlives it")
    func workersDieWithTheRun() throws {
        let scratch = TemporaryDirectory()
        let run = try RunningTool(try Self.batch(scratch, count: 30, extra: ["-j", "2"]))
        let workers = try #require(run.firstWorker()).description
        usleep(20_000)
        let all = run.workers
        kill(run.pid, SIGTERM)
        #expect(run.wait() == 143)
        // Gone, or a zombie waiting for init to reap it (a SIGKILLed process may take a moment).
        let ended = { (worker: Int32) -> Bool in
            let state = (try? String(contentsOfFile: "/proc/\(worker)/stat", encoding: .utf8)) ?? ""
            return state.isEmpty || state.split(separator: " ")[2] == "Z"
        }
        let deadline = Date().addingTimeInterval(5)
        while !all.allSatisfy(ended), Date() < deadline { usleep(20_000) }
        for worker in all {
            #expect(ended(worker), "worker \(worker) of \(workers) still runs")
        }
        #expect(scratch.files("out").allSatisfy { $0.hasSuffix(".jpg") }, "no temp file left")
    }

    /// A 10-bit 4:2:2 camera file that libheif decodes whole: far more than 64 MiB.
    static let largeCameraFile = Tool.corpus.map { $0 + "/camera/sony-a7s3-10bit-422.hif" }

    @Test("A file that needs more than --max-memory fails as out-of-memory; a small one in the same run converts",
          .enabled(if: largeCameraFile.map { FileManager.default.fileExists(atPath: $0) } == true,
                   "../shared/corpus is not present"))
    func memoryLimit() throws {
        let corpus = try #require(Self.largeCameraFile)
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-j", "1", "--max-memory", "64M", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"),
                                    corpus, Tool.samples + "/monochrome.heic"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        #expect(report.bySource["sony-a7s3-10bit-422.hif"]?["errorCode"] as? String == "out-of-memory", "\(outcome.stderr)")
        #expect(report.bySource["monochrome.heic"]?["status"] as? String == "converted", "\(outcome.stderr)")
        #expect(scratch.files("out") == ["monochrome.jpg"])
    }
}

/// Why 1 of issue #10, as a user met it: one hostile file among good ones.
@Suite("End to end: one hostile file in a batch")
struct HostileFileInBatchEndToEndTests {
    /// The grid Sample with its first tile replaced by the grid itself: a derived image
    /// that lists itself as an input (libheif 1.15 recursed to 13.5 GB on such a file).
    static func selfReferencingGrid() throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/grid-rotated-mirrored.heic")))
        let iref = try #require(bytes.indices.dropLast(16).first { bytes[$0..<($0 + 4)].elementsEqual("iref".utf8) })
        // iref (version 0): 4 bytes of version and flags, then 'dimg' boxes: size, type,
        // from_item_ID (16 bits), reference_count, to_item_IDs.
        let dimg = iref + 8 + 4
        try #require(bytes[dimg..<(dimg + 4)].elementsEqual("dimg".utf8))
        bytes[dimg + 8] = bytes[dimg + 4]
        bytes[dimg + 9] = bytes[dimg + 5]
        return bytes
    }

    @Test("Twenty good files and a self-referencing grid sorted fifth: all twenty convert, the grid fails with a reason, the summary is written")
    func oneHostileAmongTwenty() throws {
        let scratch = TemporaryDirectory()
        let good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
        for i in 0..<20 { scratch.file("in/\(String(format: "%02d", i < 4 ? i : i + 1)).heic", good) }
        scratch.file("in/04.heic", try Self.selfReferencingGrid())
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        #expect(report.entries("converted").count == 20)
        let hostile = try #require(report.bySource["04.heic"])
        #expect(hostile["errorCode"] as? String == "corrupt-container")
        #expect((hostile["reason"] as? String)?.contains("a derivation cycle") == true, "\(hostile)")
        #expect(report.summary?["converted"] as? Int == 20 && report.summary?["failed"] as? Int == 1)
        #expect(scratch.files("out").count == 20 && scratch.files("out").allSatisfy { $0.hasSuffix(".jpg") })
    }
}

/// The sandbox as a real worker has it, and workers that never outlive their parent.
@Suite("End to end: the worker sandbox")
struct WorkerSandboxEndToEndTests {
    /// `/proc/PID/status` as fields; empty once the process is gone.
    static func status(_ pid: Int32) -> [String: String] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// Whether `pid` has entered its sandbox: its seccomp filter is the last layer.
    static func isSandboxed(_ pid: Int32) -> Bool { status(pid)["Seccomp"] == "2" }

    /// Waits up to `seconds` until `condition` holds; false if it never did.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    /// Gone, or a zombie waiting for whoever adopted it to reap it.
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    @Test("A running worker's /proc status: run as root, uid and gid 65534, no groups, no capability in any set; no_new_privs and a seccomp filter")
    func workerStatus() throws {
        let scratch = TemporaryDirectory()
        let run = try RunningTool(try IsolationEndToEndTests.batch(scratch, count: 60, extra: ["-j", "2"]))
        defer { _ = run.wait() }
        let worker = try #require(run.firstWorker(), "no worker process appeared")
        #expect(Self.eventually(within: 20) { Self.isSandboxed(worker) }, "worker \(worker) never installed its filter")
        kill(worker, SIGSTOP)
        let fields = Self.status(worker)
        kill(worker, SIGCONT)
        print("worker \(worker): " + ["Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"]
            .map { "\($0): \(fields[$0] ?? "?")" }.joined(separator: ", "))
        let uid = getuid() == 0 ? "65534" : String(getuid())
        #expect(fields["Uid"]?.split(separator: "\t").allSatisfy { $0 == uid } == true, "\(fields["Uid"] ?? "")")
        if getuid() == 0 {
            #expect(fields["Gid"]?.split(separator: "\t").allSatisfy { $0 == "65534" } == true, "\(fields["Gid"] ?? "")")
            #expect(fields["CapBnd"] == "0000000000000000")
        }
        #expect(fields["Groups"] == "")
        for set in ["CapInh", "CapPrm", "CapEff", "CapAmb"] { #expect(fields[set] == "0000000000000000", "\(set): \(fields[set] ?? "?")") }
        #expect(fields["NoNewPrivs"] == "1")
        #expect(run.wait() == 0)
    }

    @Test("In a user namespace that maps only root (unshare -r, as some rootless containers), where uid 65534 does not exist, the workers keep the namespace's uid without capabilities and convert (before: every file failed, 'cannot enter its sandbox')")
    func userNamespaceWithoutTheWorkerID() throws {
        let probe = try ChildProcess.run("/usr/bin/unshare", ["-r", "true"])
        guard probe.status == 0 else {
            print("skipped: unshare -r is not permitted here (\(probe.stderr))")
            return
        }
        let scratch = TemporaryDirectory()
        let outcome = try ChildProcess.run("/usr/bin/unshare", ["-r", Tool.binary, "-o", scratch.sub("out"), Tool.samples + "/photo-exif-gps-xmp-icc.heic"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.sub("out/photo-exif-gps-xmp-icc.jpg")))
    }

    @Test("After kill -9 of the parent, every worker is gone (20 trials: a pre-started and a replacement worker, both stopped so that only PR_SET_PDEATHSIG can end them)")
    func workersDieWithTheirParent() throws {
        var times: [Double] = []
        for trial in 0..<20 {
            let scratch = TemporaryDirectory()
            let run = try RunningTool(try IsolationEndToEndTests.batch(scratch, count: 400, extra: ["-j", "2"]))
            defer { _ = run.wait(within: 1) }
            try #require(Self.eventually(within: 20) { run.workers.count == 2 && run.workers.allSatisfy(Self.isSandboxed) },
                         "trial \(trial): two sandboxed workers never appeared")
            // One killed: its replacement comes from posix_spawn on the starter thread.
            let first = run.workers
            kill(first[0], SIGKILL)
            try #require(Self.eventually(within: 20) {
                let now = run.workers
                return now.count == 2 && !now.contains(first[0]) && now.allSatisfy(Self.isSandboxed)
            }, "trial \(trial): no replacement worker")
            let workers = run.workers
            // Stopped, a worker cannot notice its socket close: only the kernel can end it.
            workers.forEach { kill($0, SIGSTOP) }
            let killed = Date()
            kill(run.pid, SIGKILL)
            let gone = Self.eventually(within: 10) { workers.allSatisfy(Self.isGone) }
            times.append(Date().timeIntervalSince(killed))
            #expect(gone, "trial \(trial): workers \(workers.filter { !Self.isGone($0) }) outlived their parent")
            workers.forEach { kill($0, SIGKILL) }
        }
        print("workers gone after the parent's kill -9, in seconds: " + times.map { String(format: "%.4f", $0) }.joined(separator: " "))
    }
}
