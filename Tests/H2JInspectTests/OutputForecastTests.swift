import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JInspect
@testable import H2JOutputPlan
@testable import H2JSupport

/// `inspect`'s account of the files a conversion would write, from the container alone.
@Suite("inspect: the outputs a conversion would write")
struct OutputForecastTests {
    typealias B = BoxBuilder
    typealias Object = [String: Any]

    /// Images 1 (the primary), 2 (AVC: not decoded) and 3 in an `ster` group with 1;
    /// a depth map (4) of 1 and a portrait matte (5) of 3.
    static func file(primaryType: String = "hvc1") -> [UInt8] {
        let ster = B.box("grpl", B.box("ster", B.fullBox(0) + B.u32(9) + B.u32(2) + B.u32(1) + B.u32(3)))
        return B.ftyp + B.meta(
            primary: 1, items: [(1, primaryType), (2, "avc1"), (3, "hvc1"), (4, "hvc1"), (5, "hvc1")],
            references: [B.reference("auxl", from: 4, to: [1]), B.reference("auxl", from: 5, to: [3])],
            properties: [HEIFDescriberTests.auxC("urn:mpeg:hevc:2015:auxid:2"),
                         HEIFDescriberTests.auxC("urn:com:apple:photo:2018:aux:portraiteffectsmatte")],
            associations: [(4, [1]), (5, [2])], extraBoxes: [ster])
    }

    static func outputs(_ file: [UInt8], _ configure: (inout OutputChoices) -> Void = { _ in }) throws -> ImageProperties.Outputs {
        var choices = OutputChoices()
        configure(&choices)
        return try #require(try ImageInspection.describe(MemoryByteSource(file), outputs: choices).outputs)
    }

    static func names(_ outputs: ImageProperties.Outputs) -> [String] {
        outputs.files.map { "\($0.name.suffix):" + $0.items.map(String.init).joined(separator: ",") + ($0.of.map { " of \($0)" } ?? "") }
    }

    @Test("Defaults: the stereo pair as one MPO; an image in a codec heic2jpg does not decode is not written, and named")
    func defaults() throws {
        let outputs = try Self.outputs(Self.file())
        #expect(Self.names(outputs) == [":1,3"])
        #expect(outputs.files.map(\.layout) == ["mpo"] && outputs.files.map(\.kind) == ["primary"])
        #expect(outputs.notWritten.map(\.name.suffix) == ["-2"] && outputs.notWritten.first?.items == [2])
        #expect(outputs.notWritten.first?.reason.contains("AVC") == true, "\(outputs.notWritten)")
        #expect(outputs.notConverted == ["1 more image (#2)", "a depth map (--aux depth writes it)", "a portrait matte (--aux matte writes it)"])
        #expect(outputs.leftOut.isEmpty && outputs.failure == nil && outputs.hdr == nil && outputs.gainMapNotUsed == nil)
    }

    @Test("--stereo split --aux depth,matte: each eye its file, each auxiliary image after its eye's")
    func splitWithAuxiliaries() throws {
        let outputs = try Self.outputs(Self.file()) {
            $0.stereo = .split
            $0.auxiliaries = [.depth, .matte]
            $0.auxiliariesChosen = true
        }
        #expect(Self.names(outputs) == ["-left:1", "-left.depth:4 of 1", "-right:3", "-right.matte:5 of 3"])
        #expect(outputs.files.map(\.kind) == ["image", "depth", "image", "matte"])
        #expect(outputs.notConverted == ["1 more image (#2)"] && outputs.leftOut.isEmpty)
    }

    @Test("--images primary --aux matte: the other images and the depth map are left out as asked")
    func primaryOnly() throws {
        let outputs = try Self.outputs(Self.file()) {
            $0.images = .primary
            $0.auxiliaries = [.matte]
            $0.auxiliariesChosen = true
        }
        #expect(Self.names(outputs) == [":1"] && outputs.notWritten.isEmpty)
        #expect(outputs.leftOut == ["2 more images (#2, #3) (--images all writes them)", "a depth map (--aux depth writes it)"])
        #expect(outputs.notConverted.isEmpty)
    }

    @Test("A primary heic2jpg cannot convert: no file, and the reason the conversion fails")
    func failure() throws {
        let outputs = try Self.outputs(Self.file(primaryType: "avc1"))
        #expect(outputs.files.isEmpty && outputs.failure?.contains("AVC") == true, "\(String(describing: outputs.failure))")
    }

    @Test("Rendered: names beside the file's, kinds, layouts and items in JSON; one line per file in text")
    func rendered() throws {
        var choices = OutputChoices()
        (choices.stereo, choices.auxiliaries, choices.auxiliariesChosen) = (.split, [.depth], true)
        let properties = try ImageInspection.describe(MemoryByteSource(Self.file()), outputs: choices)
        let outcome = InspectOutcome(file: "dir/IMG_7.HEIC", properties: properties)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.json.utf8)) as? Object)
        let outputs = try #require(object["outputs"] as? Object)
        let options = try #require(outputs["options"] as? Object)
        #expect(options["stereo"] as? String == "split" && options["aux"] as? [String] == ["depth"] && options["hdr"] as? String == "ultrahdr")
        let files = try #require(outputs["files"] as? [Object])
        #expect(files.map { $0["name"] as? String } == ["IMG_7-left.jpg", "IMG_7-left.depth.jpg", "IMG_7-right.jpg"])
        #expect(files.map { $0["kind"] as? String } == ["image", "depth", "image"])
        #expect(files[1]["of"] as? Int == 1 && files[1]["items"] as? [Int] == [4] && files[0]["of"] == nil)
        #expect((outputs["notWritten"] as? [Object])?.first?["name"] as? String == "IMG_7-2.jpg")
        #expect(outputs["hdr"] is NSNull && outputs["leftOut"] as? [String] == ["a portrait matte (--aux matte writes it)"])
        let lines = outcome.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("  outputs             --images all --stereo split --aux depth --hdr ultrahdr --metadata keep"))
        #expect(lines.contains("    image             IMG_7-left.jpg: #1"))
        #expect(lines.contains("    depth             IMG_7-left.depth.jpg: #4 of #1"))
        #expect(lines.contains { $0.hasPrefix("    not written       IMG_7-2.jpg: ") && $0.contains("AVC") }, "\(lines)")
        #expect(lines.contains("    not converted     1 more image (#2)"))
        #expect(lines.contains("    left out as asked a portrait matte (--aux matte writes it)"))
        #expect(lines.contains("    ster #9           #1, #3 (stereo pair, left first)"))
    }

    @Test("A JPEG has no planned outputs")
    func jpeg() throws {
        let jpeg = try JPEGTestSupport.encode(width: 16, height: 16, markers: [])
        #expect(try ImageInspection.describe(MemoryByteSource(jpeg)).outputs == nil)
    }
}
