import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// `--aux`: auxiliary images written as grayscale JPEGs beside their image, each with the
/// XMP that describes it, and named when they are not written.
@Suite("End to end: auxiliary images (--aux)")
struct AuxiliaryEndToEndTests {
    /// Each output of `entry` whose kind is `kind`: its file, checked to be one gray
    /// component with the pixels of libheif's decode of the auxiliary image `item`.
    static func expectAuxiliary(_ entry: [String: Any], kind: String, source: String, psnrAtLeast: Double = 40) throws -> String {
        let outputs = try #require(entry["outputs"] as? [[String: Any]])
        let output = try #require(outputs.first { $0["kind"] as? String == kind }, "no \(kind) output in \(outputs)")
        let path = try #require(output["path"] as? String), item = try #require(output["item"] as? Int)
        let decoded = try #require(Reference.jpeg(path))
        #expect(decoded.components == 1, "\(path) is gray")
        let reference = try #require(Reference.heifAuxiliary(source, UInt32(item)), "libheif's decode of item \(item)")
        let psnr = decoded.picture.psnr(against: reference)
        #expect(psnr >= psnrAtLeast, "\(path): \(psnr) dB against libheif's decode of item \(item)")
        #expect(output["width"] as? Int == reference.width && output["height"] as? Int == reference.height)
        return path
    }

    @Test("An alpha plane: NAME.alpha.jpg, gray, libheif's alpha; without --aux nothing more is written and nothing is said (alpha is in the pixels)")
    func alpha() throws {
        let source = Tool.samples + "/alpha-transparent.heic"
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["--aux", "alpha", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("out") == ["alpha-transparent.alpha.jpg", "alpha-transparent.jpg"])
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["alpha-transparent.heic"])
        _ = try Self.expectAuxiliary(entry, kind: "alpha", source: source)
        let plain = try Tool.run(["-v", "-o", scratch.sub("plain"), source])
        #expect(plain.status == 0 && scratch.files("plain") == ["alpha-transparent.jpg"] && !plain.stderr.contains("not converted"))
    }

    @Test("An iPhone's depth map and gain map: NAME.depth.jpg and NAME.gainmap.jpg with their own XMP, and no warning left; without --aux the depth map is named with the option that writes it; --hdr sdr --aux depth leaves the gain map out as asked",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func depthAndGainMap() throws {
        let source = try #require(Tool.corpus) + "/iphone/iphone13pro-depth-gainmap.heic"
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-v", "--aux", "depth,gainmap", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("out") == ["iphone13pro-depth-gainmap.depth.jpg", "iphone13pro-depth-gainmap.gainmap.jpg",
                                         "iphone13pro-depth-gainmap.jpg"])
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["iphone13pro-depth-gainmap.heic"])
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        let depth = try Self.expectAuxiliary(entry, kind: "depth", source: source)
        let gainMap = try Self.expectAuxiliary(entry, kind: "gainmap", source: source)
        let depthXMP = try ExifTool.run(["-s", "-XMP:DepthDataVersion", "-XMP:SourceName", depth]).stdoutText
        #expect(depthXMP.contains("DepthDataVersion") && depthXMP.contains("iphone13pro-depth-gainmap.heic"), "\(depthXMP)")
        let gainXMP = try ExifTool.run(["-s", "-XMP:HDRGainMapVersion", "-ICC_Profile:all", gainMap]).stdoutText
        #expect(gainXMP.contains("HDRGainMapVersion") && !gainXMP.contains("ProfileDescription"), "a gain map is data, no colour profile: \(gainXMP)")

        // The gain map is carried by the Ultra HDR output in any case; the depth map only with --aux depth.
        let plain = try Tool.run(["-v", "-o", scratch.sub("plain"), source])
        #expect(plain.stderr.contains("not converted: a depth map (--aux depth writes it)\n"), "\(plain.stderr)")
        let sdr = try Tool.run(["-v", "--hdr", "sdr", "--aux", "depth", "-o", scratch.sub("sdr"), source])
        #expect(sdr.stderr.contains("left out as asked: an HDR gain map (--hdr ultrahdr writes it)"), "\(sdr.stderr)")
        #expect(!sdr.stderr.contains("not converted:"), "\(sdr.stderr)")
    }
}
