import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// An MV-HEVC-style stereo file (Samples/stereo-mvhevc-lhv1.heic: the left view an `hvc1`
/// item, the right view an `lhv1` layer, in an `ster` group): heic2jpg writes the left
/// view and names the right one, never dropping it silently nor handing the original off.
/// SHVC layers (an `lhv1` alternative of its base layer, in an `altr` group) are no view
/// of their own and are not named.
@Suite("End to end: a layered HEVC view is named, not dropped")
struct LayeredViewEndToEndTests {
    typealias Object = [String: Any]

    static let sample = Tool.samples + "/stereo-mvhevc-lhv1.heic"
    static let named = "the right view (#2) of a stereo pair, a layered HEVC ('lhv1') image heic2jpg does not decode"

    @Test("convert: the left view's JPEG, the right view named in content-not-converted, exit 0, with either --stereo layout and with --images primary")
    func convert() throws {
        for options in [[], ["--stereo", "split"], ["--images", "primary"]] {
            let scratch = TemporaryDirectory()
            let outcome = try Tool.run(options + ["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), Self.sample])
            #expect(outcome.status == 0, "\(options): \(outcome.stderr)")
            #expect(scratch.files("out") == ["stereo-mvhevc-lhv1.jpg"], "\(options)")
            #expect(outcome.stderr.contains("content-not-converted, \(Self.sample): not converted: \(Self.named)\n"), "\(options): \(outcome.stderr)")
            let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["stereo-mvhevc-lhv1.heic"])
            #expect(entry["status"] as? String == "converted")
            #expect(entry["warningCodes"] as? [String] == ["content-not-converted"], "\(options): \(entry)")
            #expect(entry["warnings"] as? [String] == ["not converted: " + Self.named], "\(options): \(entry)")
            let outputs = entry["outputs"] as? [Object] ?? []
            #expect(outputs.map { $0["item"] as? Int } == [1] && outputs.first?["kind"] as? String == "primary", "\(outputs)")
        }
        // The JPEG is the left view: libheif's decode of item 1.
        let scratch = TemporaryDirectory()
        _ = try Tool.run(["-o", scratch.sub("out"), Self.sample])
        let references = Reference.heifImages(Self.sample)
        #expect(references.keys.sorted() == [1], "libheif 1.15 shows no lhv1 item")
        let jpeg = try #require(FileManager.default.contents(atPath: scratch.sub("out/stereo-mvhevc-lhv1.jpg")))
        try SamplesEndToEndTests.expectPixels(of: [UInt8](jpeg), item: 1, in: references, name: "left view")
    }

    @Test("--delete-source keeps the original: its outputs do not carry the right view")
    func handOff() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/IMG.heic", [UInt8](try #require(FileManager.default.contents(atPath: Self.sample))))
        let outcome = try Tool.run(["--state", scratch.sub("s.db"), "--delete-source", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: source))
        #expect(outcome.stderr.contains("IMG.heic: source kept: it holds what its outputs do not carry: \(Self.named)"), "\(outcome.stderr)")
        #expect(scratch.files("out") == ["IMG.jpg"])
    }

    @Test("inspect: the lhv1 item is listed, the one output planned, the right view named as not converted; exit 0")
    func inspect() throws {
        let json = try Tool.run(["inspect", "--json", Self.sample])
        #expect(json.status == 0)
        let object = try #require((try JSONSerialization.jsonObject(with: json.stdout) as? [Object])?.first)
        let images = object["images"] as? [Object] ?? []
        #expect(images.map { "\($0["id"] ?? "") \($0["type"] ?? "")" } == ["1 hvc1", "2 lhv1"])
        #expect((object["groups"] as? [Object])?.first?["type"] as? String == "ster")
        let outputs = try #require(object["outputs"] as? Object)
        #expect((outputs["files"] as? [Object])?.map { $0["items"] as? [Int] } == [[1]])
        #expect(outputs["notConverted"] as? [String] == [Self.named] && outputs["leftOut"] as? [String] == [])
        let text = try Tool.run(["inspect", Self.sample])
        #expect(text.stdoutText.contains("    #2                lhv1 384×256\n"), "\(text.stdoutText)")
        #expect(text.stdoutText.contains("    not converted     " + Self.named + "\n"), "\(text.stdoutText)")
    }

    @Test("SHVC: an enhancement layer in an 'altr' group with its base is not named; a grid of layers is left out for its codec",
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
    func scalableLayers() throws {
        let corpus = try #require(Tool.corpusWide)
        let snr = corpus + "/structure/mpegconf-multilayer001-lhevc-snr.heic"
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), snr])
        #expect(outcome.status == 0 && !outcome.stderr.contains("warning"), "\(outcome.stderr)")
        let inspect = try Tool.run(["inspect", "--json", snr])
        let object = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [Object])?.first)
        #expect((object["outputs"] as? Object)?["notConverted"] as? [String] == [])
        let grids = try Tool.run(["inspect", "--json", corpus + "/structure/mpegconf-multilayer002-lhevc-grids.heic"])
        let gridObject = try #require((try JSONSerialization.jsonObject(with: grids.stdout) as? [Object])?.first)
        let notWritten = ((gridObject["outputs"] as? Object)?["notWritten"] as? [Object]) ?? []
        #expect(notWritten.count == 1 && (notWritten.first?["reason"] as? String)?.contains("is layered HEVC ('lhv1')") == true, "\(notWritten)")
    }
}
