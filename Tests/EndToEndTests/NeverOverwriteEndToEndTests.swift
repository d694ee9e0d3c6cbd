import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// Files that are not heic2jpg's own outputs are never overwritten, skipped as done, or
/// destroyed by a report; stdout never gets a JPEG from a directory.
@Suite("End to end: nothing that is not ours is overwritten")
struct NeverOverwriteEndToEndTests {
    /// A camera JPEG: real image data, no provenance mark.
    static var cameraJPEG: [UInt8] {
        get throws { try JPEGTestSupport.encode(width: 16, height: 16) }
    }

    static func photo() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic")))
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    @Test("Google Takeout: IMG_1234.HEIC beside an unrelated IMG_1234.jpg fails every run, --overwrite too; --on-conflict suffix writes IMG_1234-1.jpg")
    func takeout() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/IMG_1234.HEIC", try Self.photo())
        let camera = try Self.cameraJPEG
        let cameraPath = scratch.file("in/IMG_1234.jpg", camera)
        for flags in [[String](), ["--overwrite"]] {
            let outcome = try Tool.run(flags + [scratch.sub("in")])
            #expect(outcome.status == 1, "\(flags): never 'skipped' with exit 0")
            #expect(outcome.stderr.contains("error: \(scratch.sub("in/IMG_1234.HEIC")): \(cameraPath) exists and was not written by heic2jpg"),
                    "\(flags): \(outcome.stderr)")
            #expect(Self.bytes(cameraPath) == camera, "\(flags): the camera JPEG is untouched")
        }
        let suffixed = try Tool.run(["--on-conflict", "suffix", "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(suffixed.status == 0, "\(suffixed.stderr)")
        #expect(Self.bytes(cameraPath) == camera)
        #expect(Reference.jpeg(scratch.sub("in/IMG_1234-1.jpg")) != nil)
        let report = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8)
        #expect(report.contains(#""output":"\#(scratch.sub("in/IMG_1234-1.jpg"))""#), "the report names the suffixed output")
        // A rerun recognises IMG_1234-1.jpg as its own (its mark names the source).
        let rerun = try Tool.run(["--on-conflict", "suffix", scratch.sub("in")])
        #expect(rerun.status == 0)
        #expect(rerun.stderr.contains("0 converted, 0 copied, 1 skipped, 0 failed"), "\(rerun.stderr)")
        #expect(!scratch.exists("in/IMG_1234-2.jpg"))
    }

    @Test("Files that appear at output paths while the run converts (the planner saw nothing there) are never replaced")
    func appearedMidRun() throws {
        let scratch = TemporaryDirectory()
        let photo = try Self.photo()
        for i in 0..<30 { scratch.file("in/p\(String(format: "%02d", i)).heic", photo) }
        let run = try RunningTool(["-j", "1", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        // While the worker is stopped, whatever it holds cannot be published: plant a file
        // at every output path still free, the in-flight file's among them.
        let worker = try #require(run.firstWorker(), "no worker process appeared")
        kill(worker, SIGSTOP)
        let camera = try Self.cameraJPEG
        var planted: [String] = []
        try FileManager.default.createDirectory(atPath: scratch.sub("out"), withIntermediateDirectories: true)
        for i in 0..<30 where !scratch.exists("out/p\(String(format: "%02d", i)).jpg") {
            planted.append(scratch.file("out/p\(String(format: "%02d", i)).jpg", camera))
        }
        kill(worker, SIGCONT)
        #expect(run.wait() == 1)
        #expect(!planted.isEmpty)
        for path in planted { #expect(Self.bytes(path) == camera, "\(path) was replaced") }
        let failed = try ReportFile(scratch.sub("r.jsonl")).entries("failed")
        #expect(failed.count == planted.count && failed.values.allSatisfy { $0["errorCode"] as? String == "output-not-ours" },
                "\(failed)")
        #expect(scratch.files("out").allSatisfy { $0.hasSuffix(".jpg") })
    }

    @Test("--overwrite replaces our own output, and only that")
    func overwriteOurs() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", try Self.photo())
        #expect(try Tool.run(["--quiet", "-o", scratch.sub("out"), scratch.sub("in")]).status == 0)
        let first = try #require(Self.bytes(scratch.sub("out/a.jpg")))
        let again = try Tool.run(["-q", "50", "--overwrite", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.bytes(scratch.sub("out/a.jpg")) != first, "replaced at the new quality")
    }

    @Test("--report naming an input, or an existing file that is not a report: usage error 64, the file untouched")
    func reportRefusals() throws {
        let scratch = TemporaryDirectory()
        let photo = try Self.photo()
        let source = scratch.file("IMG_0001.HEIC", photo)
        scratch.file("IMG_0002.HEIC", photo)
        // `heic2jpg -o out --report *.HEIC`: the shell puts a photo after --report.
        let glob = try Tool.run(["-o", scratch.sub("out"), "--report", source, scratch.sub("IMG_0002.HEIC"), source])
        #expect(glob.status == 64)
        #expect(glob.stderr.hasPrefix("Error: --report: the report '\(source)' is also an input; it would overwrite it\n"))
        #expect(Self.bytes(source) == photo)
        let notes = scratch.file("notes.txt", Array("my notes\n".utf8))
        let foreign = try Tool.run(["-o", scratch.sub("out"), "--report", notes, source])
        #expect(foreign.status == 64)
        #expect(foreign.stderr.hasPrefix("Error: --report: '\(notes)' exists and is not a heic2jpg report; refusing to overwrite it\n"))
        #expect(Self.bytes(notes) == Array("my notes\n".utf8))
        // An earlier report is replaced.
        let report = scratch.sub("r.jsonl")
        #expect(try Tool.run(["--quiet", "-o", scratch.sub("out"), "--report", report, source]).status == 0)
        #expect(try Tool.run(["--quiet", "-o", scratch.sub("out"), "--report", report, source]).status == 0)
    }

    @Test("-o - with a directory input: usage error 64, nothing on stdout")
    func stdoutDirectory() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", try Self.photo())
        scratch.file("in/b.heic", try Self.photo())
        let outcome = try Tool.run(["-o", "-", scratch.sub("in")])
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("Error: '-o -' writes one JPEG to stdout, so its input must be a file; '\(scratch.sub("in"))' is a directory\n"))
    }
}
