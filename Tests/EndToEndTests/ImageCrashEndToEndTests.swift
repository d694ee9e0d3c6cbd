import Foundation
import H2JTestSupport
import Testing

/// A worker that dies on an image other than the primary costs that image, not the
/// source: the rest converts in a fresh worker, and the lost image is named.
@Suite("End to end: a crash in a secondary image")
struct ImageCrashEndToEndTests {
    /// make-samples' overlay whose layer (with alpha, at x = -200) libheif 1.15 blends
    /// past its canvas: image item 4, the file's second image. heic2jpg composes it
    /// itself, so the worker is made to crash on it (`HEIC2JPG_TEST_CRASH`).
    static let sample = Tool.samples + "/overlay-alpha-negative-offset.heic"

    /// A run of heic2jpg with `arguments` into `out/`, its worker crashing on item 4 as
    /// libheif 1.15 did, and its report.
    static func convert(_ arguments: [String], _ scratch: TemporaryDirectory, crashing: Bool = true) throws -> (Outcome, ReportFile) {
        let run = try RunningTool(arguments + ["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl")], output: scratch.sub("run"),
                                  environment: crashing ? ["HEIC2JPG_TEST_CRASH": "4"] : [:])
        let status = run.wait()
        let stderr = (try? String(contentsOfFile: scratch.sub("run.err"), encoding: .utf8)) ?? ""
        return (Outcome(status: status, stderr: stderr), try ReportFile(scratch.sub("r.jsonl")))
    }

    struct Outcome {
        let status: Int32?
        let stderr: String
    }

    /// The report's warning messages of one code.
    static func warnings(_ entry: [String: Any], _ code: String) -> [String] {
        let messages = entry["warnings"] as? [String] ?? [], codes = entry["warningCodes"] as? [String] ?? []
        return zip(codes, messages).filter { $0.0 == code }.map(\.1)
    }

    @Test("Acceptance e: the second image crashes its decoder; the primary's JPEG is written, the crash named in image-not-converted, exit 0")
    func secondImageCrashes() throws {
        let scratch = TemporaryDirectory()
        let (outcome, report) = try Self.convert(["-j", "1", Self.sample, Tool.samples + "/monochrome.heic"], scratch)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(report.bySource["overlay-alpha-negative-offset.heic"])
        #expect(entry["status"] as? String == "converted", "\(entry)")
        #expect(entry["width"] as? Int == 256 && entry["height"] as? Int == 64)
        let lost = Self.warnings(entry, "image-not-converted")
        try #require(lost.count == 1, "\(entry)")
        #expect(lost[0].hasPrefix("image item 4 (for overlay-alpha-negative-offset-2.jpg) is left out: decoder crashed: SIG"), "\(lost[0])")
        #expect(lost[0].contains("decoding the inputs of a derived image"), "the stage is named: \(lost[0])")
        #expect(Self.warnings(entry, "content-not-converted") == ["not converted: 1 more image (#4)"], "\(entry)")
        #expect(outcome.stderr.contains("image item 4 (for overlay-alpha-negative-offset-2.jpg) is left out: decoder crashed: "))
        // The primary's own pixels, and the next file of the batch converts too.
        let problems = try OutputCheck.problems(source: Self.sample, output: scratch.sub("out/overlay-alpha-negative-offset.jpg"))
        #expect(problems.isEmpty, "\(problems)")
        #expect(scratch.files("out") == ["monochrome.jpg", "overlay-alpha-negative-offset.jpg"], "no temp file, no second image")
        #expect(report.bySource["monochrome.heic"]?["status"] as? String == "converted")
    }

    /// A stage for no image item, the sample that reaches it, and the words the reason names it by.
    static let crashingStages: [(stage: String, sample: String, named: String)] = [
        // The gain map of a PQ photo, computed from its two renditions: not the primary's decode.
        ("gain-map", "hdr-pq-ramp.heic", "computing the gain map"),
        // The pixel stage chosen (LittleCMS reading the profile): not the decode.
        ("pixels", "monochrome.heic", "choosing the pixel stage"),
    ]

    @Test("A crash in a stage for no image item (the computed gain map, the pixel stage) is named as that stage", arguments: crashingStages)
    func stageCrashes(stage: String, sample: String, named: String) throws {
        let scratch = TemporaryDirectory()
        let run = try RunningTool(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), Tool.samples + "/" + sample],
                                  output: scratch.sub("run"), environment: ["HEIC2JPG_TEST_CRASH": stage])
        #expect(run.wait() == 1)
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[sample])
        let reason = entry["reason"] as? String ?? ""
        #expect(entry["errorCode"] as? String == "decoder-crashed" && reason.contains(named), "\(entry)")
        #expect(!scratch.files("out").contains { $0.hasSuffix(".jpg") }, "\(scratch.files("out"))")
    }

    @Test("The hand-off keeps a source whose second image crashed its decoder")
    func handOffKeepsIt() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/o.heic", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.sample))))
        let (outcome, report) = try Self.convert(["--state", scratch.sub("s.db"), "--delete-source", scratch.sub("in")], scratch)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: source), "the original stays")
        let entry = try #require(report.bySource["o.heic"])
        #expect(entry["handOff"] is NSNull, "\(entry)")
        #expect(Self.warnings(entry, "source-kept").count == 1, "\(entry)")
        #expect(scratch.files("out") == ["o.jpg"])
    }

    @Test("With --images primary the crashing image is never decoded: no warning but what was left out as asked")
    func primaryOnly() throws {
        let scratch = TemporaryDirectory()
        let (outcome, report) = try Self.convert(["--images", "primary", Self.sample], scratch)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(report.bySource["overlay-alpha-negative-offset.heic"])
        #expect(entry["warningCodes"] as? [String] == ["content-not-converted"], "\(entry)")
    }

    @Test("Without a crash the overlay converts: heic2jpg composes it, its layer's alpha blended onto the canvas")
    func overlayConverts() throws {
        let scratch = TemporaryDirectory()
        let (outcome, report) = try Self.convert([Self.sample], scratch, crashing: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(report.bySource["overlay-alpha-negative-offset.heic"])
        #expect(entry["warningCodes"] as? [String] == [], "\(entry)")
        #expect(scratch.files("out") == ["overlay-alpha-negative-offset-2.jpg", "overlay-alpha-negative-offset.jpg"])
    }

    /// The MPEG conformance overlay whose second instance lies at negative offsets
    /// (libheif crashed on it in the issue's run; heic2jpg composes it itself).
    static let conformanceOverlay = Tool.corpusWide.map { $0 + "/structure/mpegconf-C021-overlay-small-canvas-offscreen.heic" }

    @Test("Corpus: the conformance overlay with negative offsets gives the primary's JPEG and its overlay, exit 0",
          .enabled(if: conformanceOverlay.map { FileManager.default.fileExists(atPath: $0) } == true,
                   "../shared/corpus-wide is not present"))
    func conformanceFile() throws {
        let file = try #require(Self.conformanceOverlay)
        let scratch = TemporaryDirectory()
        let (outcome, report) = try Self.convert([file], scratch, crashing: false)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(report.bySource[(file as NSString).lastPathComponent])
        #expect(entry["status"] as? String == "converted", "\(entry)")
        #expect(entry["warningCodes"] as? [String] == [], "\(entry)")
        let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        #expect(scratch.files("out") == [stem + "-2.jpg", stem + ".jpg"])
    }
}
