import Foundation
import H2JTestSupport
import Testing

/// `inspect` says what `convert` finds: a file cut short fails both, for the same reason
/// and with a non-zero status.
@Suite("End to end: inspect agrees with convert")
struct InspectVerdictEndToEndTests {
    typealias Object = [String: Any]

    /// The first report line's object of a conversion of `input` into `scratch`.
    static func report(_ input: String, _ options: [String] = [], in scratch: TemporaryDirectory) throws -> (status: Int32, entry: Object) {
        let outcome = try Tool.run(options + ["--quiet", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), input])
        let line = try #require(try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).split(separator: "\n").first)
        return (outcome.status, try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? Object))
    }

    @Test("A sample cut short: convert refuses it (truncated) and inspect plans no output, for the same reason, exit 1 in both modes")
    func truncated() throws {
        let scratch = TemporaryDirectory()
        let whole = try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic"))
        let cut = scratch.sub("cut.heic")
        try whole.prefix(whole.count - 1000).write(to: URL(fileURLWithPath: cut))

        let (status, entry) = try Self.report(cut, in: scratch)
        #expect(status == 1 && entry["status"] as? String == "failed" && entry["errorCode"] as? String == "truncated", "\(entry)")
        let reason = try #require(entry["reason"] as? String)
        #expect(reason.contains("lies outside the"), "\(reason)")

        let json = try Tool.run(["inspect", "--json", cut])
        #expect(json.status == 1, "a file convert fails is a failure of inspect too")
        let object = try #require((try JSONSerialization.jsonObject(with: json.stdout) as? [Object])?.first)
        let outputs = try #require(object["outputs"] as? Object)
        #expect(outputs["failure"] as? String == reason)
        #expect((outputs["files"] as? [Object])?.isEmpty == true)
        #expect(object["primary"] is Object, "the rest of the file is still described")

        let text = try Tool.run(["inspect", cut])
        #expect(text.status == 1)
        #expect(text.stdoutText.contains("    none              the conversion fails: " + reason), "\(text.stdoutText)")
        // The whole sample is still fine.
        #expect(try Tool.run(["inspect", "--json", Tool.samples + "/photo-exif-gps-xmp-icc.heic"]).status == 0)
    }
}
