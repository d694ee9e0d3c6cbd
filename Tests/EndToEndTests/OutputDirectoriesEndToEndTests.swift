import Foundation
import H2JTestSupport
import Testing

/// What a run does in the output directories it plans into (issue 19, item 8): the temp
/// files of killed runs go, whether or not the run writes there, and `--on-conflict
/// suffix` also covers a file that appears while its source converts.
@Suite("End to end: output directories, killed runs and late arrivals")
struct OutputDirectoriesEndToEndTests {
    static let sample = Tool.samples + "/photo-exif-gps-xmp-icc.heic"

    @Test("A rerun that writes nothing removes a killed run's temp files from the directories it plans into")
    func sweepOnRerun() throws {
        let scratch = TemporaryDirectory()
        let photo = [UInt8](try #require(FileManager.default.contents(atPath: Self.sample)))
        scratch.file("in/sub/a.heic", photo)
        scratch.file("in/b.heic", photo)
        for state in [["--state", scratch.sub("s.db")], []] {
            let arguments = ["-o", scratch.sub("out")] + state + [scratch.sub("in")]
            #expect(try Tool.run(arguments).status == 0)
            // A run killed once it has written a.heic's temp file in out/sub, before publishing
            // it (HEIC2JPG_TEST_PAUSE stops it there every time; one job, so one pause at a
            // time), leaves that file behind.
            let pause = scratch.sub(state.isEmpty ? "pause" : "pause-state")
            try FileManager.default.createDirectory(atPath: pause, withIntermediateDirectories: true)
            #expect(mkfifo(pause + "/reached", 0o600) == 0 && mkfifo(pause + "/resume", 0o600) == 0)
            let killed = try RunningTool(["--overwrite", "-j", "1"] + arguments, environment: ["HEIC2JPG_TEST_PAUSE": "staged:\(pause)"])
            let channel = PauseChannel(pause, run: killed)
            while let source = channel.nextSource(), !source.hasSuffix("/sub/a.heic") { channel.resume() }
            for worker in killed.workers { kill(worker, SIGKILL) }
            kill(killed.pid, SIGKILL)
            _ = killed.wait(within: 30)
            #expect(scratch.files("out/sub").contains(where: TempFileName.matches), "the killed run left its temp file")
            // Every temp file it left, in out/sub and anywhere else under out/.
            let left = scratch.files("out").filter { TempFileName.matches(($0 as NSString).lastPathComponent) }.count
            let rerun = try Tool.run(arguments)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(rerun.stderr.contains("0 converted, 0 copied, 2 skipped, 0 failed"), "nothing written: \(rerun.stderr)")
            #expect(rerun.stderr.contains("removed \(left) temp file\(left == 1 ? "" : "s") left by killed runs"), "\(state): \(rerun.stderr)")
            #expect(scratch.files("out") == ["b.jpg", "sub/a.jpg"], "\(state)")
        }
    }

    @Test("--on-conflict suffix: a file that appears at the output mid-run moves it to NAME-1.jpg; without it, the source fails")
    func lateArrival() throws {
        let arrival = Data("a camera JPEG copied in meanwhile".utf8)
        for suffix in [true, false] {
            let scratch = TemporaryDirectory()
            let out = scratch.directory("out")
            let options = suffix ? ["--on-conflict", "suffix"] : []
            // The file arrives once the output's temp file is written, before it is published.
            let pause = scratch.directory("pause")
            #expect(mkfifo(pause + "/reached", 0o600) == 0 && mkfifo(pause + "/resume", 0o600) == 0)
            let run = try RunningTool(options + ["-o", out, "--report", scratch.sub("r.jsonl"), Self.sample],
                                      environment: ["HEIC2JPG_TEST_PAUSE": "staged:\(pause)"])
            let channel = PauseChannel(pause, run: run)
            #expect(channel.nextSource() == Self.sample)
            #expect(FileManager.default.createFile(atPath: out + "/photo-exif-gps-xmp-icc.jpg", contents: arrival))
            channel.resume()
            let status = run.wait(within: 60)
            #expect(FileManager.default.contents(atPath: out + "/photo-exif-gps-xmp-icc.jpg") == arrival, "never replaced")
            let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["photo-exif-gps-xmp-icc.heic"])
            if suffix {
                #expect(status == 0)
                #expect(entry["status"] as? String == "converted", "\(entry)")
                #expect(entry["output"] as? String == out + "/photo-exif-gps-xmp-icc-1.jpg", "\(entry)")
                #expect(scratch.files("out") == ["photo-exif-gps-xmp-icc-1.jpg", "photo-exif-gps-xmp-icc.jpg"])
            } else {
                #expect(status == 1)
                #expect(entry["errorCode"] as? String == "output-not-ours", "\(entry)")
                #expect((entry["reason"] as? String)?.hasSuffix("(--on-conflict suffix writes beside it)") == true, "\(entry)")
                #expect(scratch.files("out") == ["photo-exif-gps-xmp-icc.jpg"])
            }
        }
    }
}
