import Foundation
import H2JContainer
import H2JReferenceDecoders
import H2JSupport
import H2JTestSupport
import Testing

/// `Samples/mini-hevc-orientation6.heic`, the low-overhead `mini` file make-samples
/// writes (make-grid-heic --mini): the collection sample's first picture, the very same
/// coded bytes, turned to portrait by EXIF orientation 6, with an EXIF chunk. It needs
/// no corpus.
///
/// The reference does not go through the code under test: libheif 1.15, through its C
/// API, decodes the ordinary HEIF that holds the same coded picture
/// (`collection-3-images.heic`, read by libheif's own container code), and the test
/// turns that picture a quarter turn clockwise as orientation 6 says. Neither our
/// `mini` reader nor the tile engine is involved in it.
@Suite("End to end: the mini sample")
struct MiniSampleEndToEndTests {
    static let mini = Tool.samples + "/mini-hevc-orientation6.heic"
    static let collection = Tool.samples + "/collection-3-images.heic"

    @Test("The reference holds: the mini file's coded picture is the collection's first item, byte for byte")
    func sameCodedPicture() throws {
        let collection = MemoryByteSource([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.collection))))
        let structure = try HEIFStructure.read(from: collection)
        let coded = try structure.itemData(1, from: collection, maxBytes: 1 << 20)
        let mini = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.mini)))
        #expect(coded.count > 4000 && mini.count > coded.count)
        #expect(mini.starts(with: [0, 0, 0, 16] + Array("ftypmif3heic".utf8)) && Array(mini[20..<24]) == Array("mini".utf8))
        let found = (0...(mini.count - coded.count)).contains { mini[$0..<($0 + coded.count)].elementsEqual(coded) }
        #expect(found, "make-samples writes both from the same picture and settings")
    }

    @Test("Converts upright by the tile engine, as close to libheif's decode of the same picture as a plain JPEG of it; EXIF kept, Orientation 1")
    func converts() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), Self.mini])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["mini-hevc-orientation6.heic"])
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == "tiles", "\(entry)")
        #expect(entry["warnings"] as? [String] == [], "\(entry)")
        let output = scratch.sub("out/mini-hevc-orientation6.jpg")
        let decoded = try #require(Reference.jpeg(output))
        #expect((decoded.picture.width, decoded.picture.height) == (256, 384) && decoded.warnings == 0)

        let landscape = try #require(Reference.heif(Self.collection), "libheif decodes the collection's primary")
        #expect((landscape.width, landscape.height) == (384, 256))
        let reference = landscape.rotatedClockwise()
        let psnr = decoded.picture.psnr(against: reference)
        let ceiling = Reference.jpegCeiling(reference, components: 3)
        #expect(psnr >= min(ceiling - 0.5, 40), "\(psnr) dB against libheif's decode, a plain JPEG of it \(ceiling) dB")
        // Turned the other way, or not at all, it would be far off: the check sees orientation.
        let wrongWay = landscape.rotatedClockwise().rotatedClockwise().rotatedClockwise()
        #expect(decoded.picture.psnr(against: wrongWay) < 20)

        let tags = try ExifTool.tags(atPath: output)
        #expect("\(tags["IFD0:Orientation"] ?? "")" == "1", "the pixels are turned; EXIF must not turn them again")
        #expect(tags["IFD0:Make"] as? String == "Heic2jpgSamples" && tags["ExifIFD:DateTimeOriginal"] as? String == "2024:05:17 14:35:20")
        #expect(tags["GPS:GPSLatitudeRef"] as? String == "S", "\(tags)")
    }

    @Test("inspect: a mini file, shown portrait, irot 270 and EXIF 6, and the one JPEG a conversion writes")
    func inspect() throws {
        let outcome = try Tool.run(["inspect", "--json", Self.mini])
        let entry = try #require((try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]])?.first)
        #expect(entry["layout"] as? String == "mini" && (entry["brands"] as? [String: Any])?["major"] as? String == "mif3")
        let image = try #require((entry["images"] as? [[String: Any]])?.first)
        #expect(image["type"] as? String == "hvc1" && image["displayWidth"] as? Int == 256 && image["displayHeight"] as? Int == 384)
        let orientation = (entry["primary"] as? [String: Any])?["orientation"] as? [String: Any]
        #expect(orientation?["irot"] as? Int == 270 && orientation?["exif"] as? Int == 6, "\(entry)")
        let files = ((entry["outputs"] as? [String: Any])?["files"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(files == ["mini-hevc-orientation6.jpg"])
    }
}
