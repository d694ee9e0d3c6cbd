import Foundation
import H2JTestSupport
import Testing

/// `inspect` says what `convert` finds: a file cut short fails both, for the same reason
/// and with a non-zero status; an Ultra HDR JPEG heic2jpg wrote is told as one.
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

    @Test("An Ultra HDR JPEG converted from gainmap-apple.heic: inspect names its gain map, its size and headroom")
    func ultraHDROutput() throws {
        let scratch = TemporaryDirectory()
        let (status, entry) = try Self.report(Tool.samples + "/gainmap-apple.heic", in: scratch)
        #expect(status == 0, "\(entry)")
        let output = scratch.sub("out/gainmap-apple.jpg")

        let json = try Tool.run(["inspect", "--json", output])
        #expect(json.status == 0)
        let object = try #require((try JSONSerialization.jsonObject(with: json.stdout) as? [Object])?.first)
        let gainMap = try #require(object["gainMap"] as? Object, "\(object)")
        let images = object["images"] as? [Object] ?? []
        #expect(images.count == 2)
        #expect(gainMap["image"] as? Int == 2)
        #expect(gainMap["width"] as? Int == images.last?["width"] as? Int && gainMap["height"] as? Int == images.last?["height"] as? Int)
        #expect((gainMap["width"] as? Int ?? 0) > 0)
        #expect(gainMap["hdrgm"] as? Bool == true && gainMap["iso21496"] as? Bool == true && gainMap["announced"] as? Bool == true)
        #expect(gainMap["channels"] as? Int == 1 && gainMap["baseHeadroom"] as? Double == 0)
        // The headroom the conversion reported (Apple's, linear) is the gain map's, in stops.
        let alternate = try #require(gainMap["alternateHeadroom"] as? Double)
        let hdr = try #require(entry["hdr"] as? String)
        let linear = try #require(Self.headroom(in: hdr), "\(hdr)")
        #expect(abs(alternate - log2(linear)) < 0.01, "\(alternate) stops, reported \(hdr)")

        let text = try Tool.run(["inspect", output])
        let line = text.stdoutText.split(separator: "\n").first { $0.hasPrefix("  gain map ") }
        #expect(line?.contains("image 2, \(gainMap["width"] ?? "")×\(gainMap["height"] ?? ""), Ultra HDR (hdrgm XMP, ISO 21496-1 APP2): headroom 0 → ") == true,
                "\(text.stdoutText)")

        // Strip mode writes the SDR image only: no gain map, nothing said.
        let stripped = TemporaryDirectory()
        _ = try Self.report(Tool.samples + "/gainmap-apple.heic", ["--metadata", "strip"], in: stripped)
        let plain = try Tool.run(["inspect", "--json", stripped.sub("out/gainmap-apple.jpg")])
        let plainObject = try #require((try JSONSerialization.jsonObject(with: plain.stdout) as? [Object])?.first)
        #expect(plainObject["gainMap"] == nil && (plainObject["warnings"] as? [String])?.isEmpty == true)
    }

    /// The linear headroom in a report's `hdr` ("… headroom 3.48 …"), nil without one.
    static func headroom(in hdr: String) -> Double? {
        guard let range = hdr.range(of: "headroom ") else { return nil }
        return Double(hdr[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }
}
