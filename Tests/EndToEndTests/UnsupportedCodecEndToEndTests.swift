import Foundation
import H2JTestSupport
import Testing

/// AVC, VVC and JPEG 2000 items fail before any decoder runs, with `errorCode`
/// `unsupported` and a reason that names the codec: libheif's fuzzing seeds of
/// `../shared/corpus-wide/structure`, which libheif 1.15 itself refuses with "'pitm' box
/// references a non-existing image".
@Suite("End to end: codecs heic2jpg does not decode", .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
struct UnsupportedCodecEndToEndTests {
    @Test("each fails naming its codec", arguments: [("libheif-fuzz-avc32.heif", "AVC (H.264, 'avc1')"),
                                                     ("libheif-fuzz-vvc32.heif", "VVC (H.266, 'vvc1')"),
                                                     ("libheif-fuzz-j2k32.heif", "JPEG 2000 ('j2k1')")])
    func named(_ file: String, _ codec: String) throws {
        let path = try #require(Tool.corpusWide) + "/structure/" + file
        try #require(FileManager.default.fileExists(atPath: path), "\(file) is missing from corpus-wide/structure")
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), path])
        #expect(outcome.status == 1)
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[file])
        #expect(entry["status"] as? String == "failed" && entry["errorCode"] as? String == "unsupported", "\(entry)")
        #expect(entry["reason"] as? String == "item 1 is \(codec): heic2jpg decodes HEVC, AV1, JPEG and uncompressed images only")
        #expect(scratch.files("out").isEmpty, "nothing is written")
    }
}
