import Foundation
import H2JTestSupport
import Testing

/// An Ultra HDR output over 8192 pixels a side, which libultrahdr and Android do not
/// read, is written with an `ultrahdr-too-large` warning that suggests `--max-size 8192`
/// (issue #30). The source, 8448×64 with an Apple gain map, is made at test time by
/// `Scripts/make-grid-heic` (x265, well under a second).
@Suite("End to end: Ultra HDR outputs past the readers' size limit")
struct UltraHDRReaderLimitEndToEndTests {
    /// `wide.heic` in `scratch`: 8448×64, an Apple gain map of half its size.
    static func wideSource(in scratch: TemporaryDirectory) throws -> String {
        _ = try HEVCReference.tool("x265")
        let path = scratch.sub("wide.heic")
        let made = try ChildProcess.run(Tool.packageRoot.appendingPathComponent("Scripts/make-grid-heic").path,
                                        ["-o", path, "--single", "--width", "8448", "--height", "64", "--gain-map", "apple",
                                         "--preset", "ultrafast"])
        try #require(made.status == 0, "make-grid-heic failed: \(made.stderr)")
        return path
    }

    /// Converts `source` with `options` into `scratch/name`: the run and its report entry.
    static func convert(_ source: String, _ options: [String], as name: String, in scratch: TemporaryDirectory) throws
        -> (outcome: Tool.Outcome, entry: [String: Any]) {
        let report = scratch.sub("\(name).jsonl")
        let outcome = try Tool.run(options + ["-o", scratch.sub(name), "--report", report, source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return (outcome, try #require(try ReportFile(report).bySource["wide.heic"]))
    }

    @Test("8448 pixels wide: written as Ultra HDR with a warning naming the 8192 limit and --max-size 8192, on stderr and in the report; --max-size 8192 or --hdr sdr: no warning")
    func wideOutput() throws {
        let scratch = TemporaryDirectory()
        let source = try Self.wideSource(in: scratch)

        let (outcome, entry) = try Self.convert(source, ["-v"], as: "plain", in: scratch)
        #expect((entry["hdr"] as? String ?? "").hasPrefix("Ultra HDR: "), "\(entry)")
        #expect(entry["warningCodes"] as? [String] == ["ultrahdr-too-large"], "\(entry)")
        let warning = (entry["warnings"] as? [String])?.first ?? ""
        for phrase in ["8448×64", "libultrahdr and Android read at most 8192 pixels a side", "--max-size 8192"] {
            #expect(warning.contains(phrase), "\(warning)")
        }
        #expect(outcome.stderr.contains("warning: \(source): \(warning)"), "\(outcome.stderr)")

        let (resized, resizedEntry) = try Self.convert(source, ["--max-size", "8192"], as: "resized", in: scratch)
        #expect(resizedEntry["width"] as? Int == 8192 && (resizedEntry["hdr"] as? String ?? "").hasPrefix("Ultra HDR: "), "\(resizedEntry)")
        #expect((resizedEntry["warningCodes"] as? [String] ?? []).isEmpty && !resized.stderr.contains("warning"), "\(resized.stderr)")

        let (_, sdrEntry) = try Self.convert(source, ["--hdr", "sdr"], as: "sdr", in: scratch)
        #expect(!(sdrEntry["warningCodes"] as? [String] ?? []).contains("ultrahdr-too-large"), "\(sdrEntry)")
    }
}
