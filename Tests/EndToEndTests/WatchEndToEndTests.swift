import Foundation
import H2JTestSupport
import Testing

/// `heic2jpg watch` with real writers: each photo converted exactly once, never
/// half-written, with no failure; an upload that never completes is never converted; a
/// SIGTERM ends it with 0 within 5 seconds and leaves nothing half-done.
@Suite("End to end: watch", .serialized)
struct WatchEndToEndTests {
    static var photo: [UInt8] { get throws { [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic"))) } }

    /// A watch of `scratch/in` into `scratch/out`, ready (its `READY=1` came) when this returns.
    static func start(_ scratch: TemporaryDirectory, _ extra: [String] = [], environment: [String: String] = [:]) throws
        -> (RunningTool, NotifySocket) {
        try FileManager.default.createDirectory(atPath: scratch.sub("in"), withIntermediateDirectories: true)
        let notify = try NotifySocket(scratch.sub("notify"))
        let run = try RunningTool(["watch", "--state", scratch.sub("state.db"), "--report", scratch.sub("r.jsonl"), "-o", scratch.sub("out")]
                                  + extra + [scratch.sub("in")], output: scratch.sub("run"),
                                  environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 })
        #expect(notify.wait(for: "READY=1", within: 30), "READY=1 is sent once watching")
        return (run, notify)
    }

    /// Runs a shell command line (the writers are real programs: cp, mv, rsync, a shell).
    static func sh(_ line: String) throws {
        let outcome = try Tool.run(["-c", line], executable: "/bin/sh")
        #expect(outcome.status == 0, "\(line): \(outcome.stderr)")
    }

    /// The regular files under `scratch/out`, waiting until they are `expected` (or 60 s).
    static func outputs(_ scratch: TemporaryDirectory, becoming expected: [String]) -> [String] {
        let deadline = Date().addingTimeInterval(60)
        var found: [String] = []
        repeat {
            found = scratch.files("out").filter { !$0.hasSuffix("/") }.sorted()
            if found == expected { return found }
            usleep(100_000)
        } while Date() < deadline
        return found
    }

    @Test("cp, a slow writer, rsync, a renamed .part, a Syncthing temp, trees made, moved in and renamed: each converted once; a partial upload never")
    func realWriters() throws {
        let scratch = TemporaryDirectory()
        let sample = scratch.file("sample.heic", try Self.photo)
        let (run, _) = try Self.start(scratch, ["--settle", "1"])
        let input = scratch.sub("in")
        // A slow writer: the file made empty beside the input and moved in while open, then
        // written in four chunks with pauses longer than --settle before its close. (Made
        // there and closed, the close of a copy of its descriptor that a process the test
        // process spawns meanwhile holds could come after the first write.)
        let photo = try Self.photo
        let staging = scratch.sub("slow.heic")
        let slow = Thread {
            let fd = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return }
            defer { close(fd) }
            guard rename(staging, input + "/slow.heic") == 0 else { return }
            let chunk = (photo.count + 3) / 4
            for start in stride(from: 0, to: photo.count, by: chunk) {
                let written = photo[start..<min(photo.count, start + chunk)].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                guard written > 0 else { return }
                Thread.sleep(forTimeInterval: 1.5)
            }
        }
        slow.start()
        try Self.sh("cp '\(sample)' '\(input)/cp.heic'")
        try Self.sh("rsync '\(sample)' '\(input)/rsync.heic'")
        try Self.sh("cp '\(sample)' '\(input)/upload.heic.part' && sleep 1.5 && mv '\(input)/upload.heic.part' '\(input)/upload.heic'")
        try Self.sh("cp '\(sample)' '\(input)/.syncthing.synced.heic.tmp' && sleep 1.5 && mv '\(input)/.syncthing.synced.heic.tmp' '\(input)/synced.heic'")
        // An upload that never completes: half a photo under a temp name, for good.
        try Self.sh("head -c 2000 '\(sample)' > '\(input)/partial.heic.part'")
        try Self.sh("mkdir -p '\(input)/tree/a/b' && cp '\(sample)' '\(input)/tree/a/b/made.heic'")
        try Self.sh("mkdir -p '\(scratch.sub("elsewhere/moved/x"))' && cp '\(sample)' '\(scratch.sub("elsewhere/moved/x/in.heic"))'"
                    + " && mv '\(scratch.sub("elsewhere/moved"))' '\(input)/moved'")
        // A directory renamed before its photo settled: taken once, under its final name.
        try Self.sh("mkdir '\(input)/incoming' && cp '\(sample)' '\(input)/incoming/r.heic' && mv '\(input)/incoming' '\(input)/final'")
        let expected = ["cp.jpg", "final/r.jpg", "moved/x/in.jpg", "rsync.jpg", "slow.jpg", "synced.jpg", "tree/a/b/made.jpg", "upload.jpg"]
        #expect(Self.outputs(scratch, becoming: expected) == expected)
        Thread.sleep(forTimeInterval: 2)  // nothing more comes
        kill(run.pid, SIGTERM)
        #expect(run.wait(within: 10) == 0)
        let lines = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).split(separator: "\n")
        let entries = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
            .filter { $0["summary"] == nil }
        let sources = entries.compactMap { ($0["source"] as? String).map { String($0.dropFirst(input.count + 1)) } }.sorted()
        #expect(sources == ["cp.heic", "final/r.heic", "moved/x/in.heic", "rsync.heic", "slow.heic", "synced.heic", "tree/a/b/made.heic",
                            "upload.heic"], "each once: \(sources)")
        #expect(entries.allSatisfy { $0["status"] as? String == "converted" }, "\(entries)")
        #expect(scratch.files("out").allSatisfy { !$0.contains("partial") }, "the partial upload is never converted")
        let stderr = try String(contentsOfFile: scratch.sub("run.err"), encoding: .utf8)
        #expect(!stderr.contains("error:"), "no failure line: \(stderr)")
        for output in expected {
            let problems = try OutputCheck.problems(source: sample, output: scratch.sub("out/" + output))
            #expect(problems.isEmpty, "\(output): \(problems)")
        }
    }

    @Test("SIGTERM in the middle of a conversion: exit 0 within 5 s, no output or temp file left, and the file converts on the next start")
    func sigtermMidConversion() throws {
        let scratch = TemporaryDirectory()
        let pause = scratch.sub("pause")
        try FileManager.default.createDirectory(atPath: pause, withIntermediateDirectories: true)
        #expect(mkfifo(pause + "/reached", 0o600) == 0 && mkfifo(pause + "/resume", 0o600) == 0)
        let (run, notify) = try Self.start(scratch, ["--settle", "0.5", "-j", "1"], environment: ["HEIC2JPG_TEST_PAUSE": "converting:\(pause)"])
        let channel = PauseChannel(pause, run: run)
        _ = scratch.file("in/p.heic", try Self.photo)
        #expect(channel.nextSource() == scratch.sub("in/p.heic"), "the conversion is under way")
        let started = Date()
        kill(run.pid, SIGTERM)
        #expect(notify.wait(for: "STOPPING=1", within: 5) || !run.process.isRunning)
        #expect(run.wait(within: 10) == 0)
        let took = Date().timeIntervalSince(started)
        print("watch stopped by SIGTERM mid-conversion in \(String(format: "%.2f", took)) s")
        #expect(took < 5, "stopped in \(took) s")
        #expect(scratch.files("out").filter { !$0.hasSuffix("/") }.isEmpty, "no output, no temp file: \(scratch.files("out"))")
        let (again, _) = try Self.start(scratch, ["--settle", "0.5"])
        #expect(Self.outputs(scratch, becoming: ["p.jpg"]) == ["p.jpg"])
        kill(again.pid, SIGTERM)
        #expect(again.wait(within: 10) == 0)
    }

    @Test("A hard link gives no close event: SIGHUP walks again and takes it, --rescan does so by itself; SIGUSR1 prints the summary")
    func rescans() throws {
        let scratch = TemporaryDirectory()
        let sample = scratch.file("sample.heic", try Self.photo)
        // A photo there before the start: once converted, the catch-up walk is over, so it
        // cannot be what meets the link.
        _ = scratch.file("in/first.heic", try Self.photo)
        let (run, _) = try Self.start(scratch, ["--settle", "0.5"])
        #expect(Self.outputs(scratch, becoming: ["first.jpg"]) == ["first.jpg"], "the catch-up walk")
        try Self.sh("ln '\(sample)' '\(scratch.sub("in/linked.heic"))'")
        Thread.sleep(forTimeInterval: 2)
        #expect(scratch.files("out").filter { !$0.hasSuffix("/") } == ["first.jpg"], "a link alone is not taken")
        kill(run.pid, SIGHUP)
        #expect(Self.outputs(scratch, becoming: ["first.jpg", "linked.jpg"]) == ["first.jpg", "linked.jpg"], "SIGHUP walks again")
        // The state is read while the watch holds it.
        let status = try Tool.run(["status", "--state", scratch.sub("state.db")])
        let said = String(decoding: status.stdout, as: UTF8.self)
        #expect(said.hasPrefix("sources: 2 (2 converted)"), "\(status.stderr)")
        #expect(said.contains("its latest run #1 is under way (pid \(run.pid))\n") && !said.contains("rerun"), "the watch's own run: \(said)")
        kill(run.pid, SIGUSR1)
        let deadline = Date().addingTimeInterval(10)
        var stderr = ""
        repeat {
            stderr = (try? String(contentsOfFile: scratch.sub("run.err"), encoding: .utf8)) ?? ""
            if stderr.contains("heic2jpg: 2 converted") { break }
            usleep(100_000)
        } while Date() < deadline
        #expect(stderr.contains("heic2jpg: 2 converted"), "SIGUSR1's summary line: \(stderr)")
        kill(run.pid, SIGTERM)
        #expect(run.wait(within: 10) == 0)
        let ended = String(decoding: try Tool.run(["status", "--state", scratch.sub("state.db")]).stdout, as: UTF8.self)
        #expect(!ended.contains("incomplete") && ended.contains("2 converted, 0 updated, 0 skipped, 0 failed, exit 0"), "\(ended)")

        let again = TemporaryDirectory()
        let other = again.file("sample.heic", try Self.photo)
        let (rescanning, _) = try Self.start(again, ["--settle", "0.5", "--rescan", "1"])
        try Self.sh("ln '\(other)' '\(again.sub("in/linked.heic"))'")
        #expect(Self.outputs(again, becoming: ["linked.jpg"]) == ["linked.jpg"], "--rescan walks again by itself")
        // Killed, its run is no longer under way: the kernel let go of its state's lock.
        kill(rescanning.pid, SIGKILL)
        _ = rescanning.wait(within: 10)
        let killed = String(decoding: try Tool.run(["status", "--state", again.sub("state.db")]).stdout, as: UTF8.self)
        #expect(killed.contains("its latest run #1 is unfinished (killed, or under way on another machine); rerun it"), "\(killed)")
    }

    @Test("--exclude holds for files as they arrive, a photo moved out before it settled is not taken, and one put back is")
    func excludedAndMovedOut() throws {
        let scratch = TemporaryDirectory()
        let sample = scratch.file("sample.heic", try Self.photo)
        let (run, _) = try Self.start(scratch, ["--settle", "1", "--exclude", "@eaDir"])
        let input = scratch.sub("in")
        try Self.sh("mkdir -p '\(input)/a/@eaDir' && cp '\(sample)' '\(input)/a/@eaDir/thumb.heic' && cp '\(sample)' '\(input)/a/kept.heic'")
        try Self.sh("cp '\(sample)' '\(input)/gone.heic' && mv '\(input)/gone.heic' '\(scratch.sub("gone.heic"))'")
        #expect(Self.outputs(scratch, becoming: ["a/kept.jpg"]) == ["a/kept.jpg"])
        Thread.sleep(forTimeInterval: 2)
        #expect(scratch.files("out").filter { !$0.hasSuffix("/") } == ["a/kept.jpg"], "neither the excluded nor the moved-out photo")
        try Self.sh("mv '\(scratch.sub("gone.heic"))' '\(input)/back.heic'")
        #expect(Self.outputs(scratch, becoming: ["a/kept.jpg", "back.jpg"]) == ["a/kept.jpg", "back.jpg"])
        kill(run.pid, SIGTERM)
        #expect(run.wait(within: 10) == 0)
    }

    @Test("--delete-source: a settled photo is converted, proved and handed off as in a run")
    func handOff() throws {
        let scratch = TemporaryDirectory()
        let (run, _) = try Self.start(scratch, ["--settle", "0.5", "--delete-source"])
        let source = scratch.file("in/p.heic", try Self.photo)
        #expect(Self.outputs(scratch, becoming: ["p.jpg"]) == ["p.jpg"])
        let deadline = Date().addingTimeInterval(30)
        while FileManager.default.fileExists(atPath: source), Date() < deadline { usleep(100_000) }
        #expect(!FileManager.default.fileExists(atPath: source), "the original is handed off")
        kill(run.pid, SIGTERM)
        #expect(run.wait(within: 10) == 0)
        let report = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8)
        #expect(report.contains("\"handOff\":\"deleted\""), "\(report)")
    }

    @Test("watch takes directories and needs a state; help watch describes it")
    func usage() throws {
        let scratch = TemporaryDirectory()
        _ = scratch.file("in/p.heic", try Self.photo)
        let noState = try Tool.run(["watch", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(noState.status == 64 && noState.stderr.contains("'watch' needs '--state'"), "\(noState.stderr)")
        let file = try Tool.run(["watch", "--state", scratch.sub("s.db"), scratch.sub("in/p.heic")])
        #expect(file.status == 64 && file.stderr.contains("takes directories"), "\(file.stderr)")
        let help = try Tool.run(["help", "watch"])
        let text = String(decoding: help.stdout, as: UTF8.self)
        #expect(help.status == 0 && text.contains("--settle") && text.contains("SIGTERM"), "\(text)")
    }
}
