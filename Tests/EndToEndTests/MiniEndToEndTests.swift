import Foundation
import H2JContainer
import H2JReferenceDecoders
import H2JSupport
import H2JTestSupport
import Testing

/// Low-overhead `mini` files (ISO/IEC 23008-12:2024, brand `mif3`) convert like any
/// HEIF, checked on the three of `../shared/corpus-wide/mini` (see its SOURCES.md).
///
/// The pixels are checked against references that do not go through the pipeline: for
/// HEVC, ffmpeg's decode of the coded bytes (`TileReference`: no libheif involved); for
/// AV1, libheif 1.15 straight through its C API on the equivalent HEIF the translation
/// writes out (libheif 1.15 cannot read `mini` itself). Each output must come as close
/// to its reference as a plain q90 4:2:0 JPEG of the reference does.
@Suite("End to end: low-overhead 'mini' files", .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
struct MiniEndToEndTests {
    struct Expectation: Sendable, CustomStringConvertible {
        let file: String
        let engine: String
        let width: Int
        let height: Int
        let alpha: Bool
        var description: String { file }
    }

    static let expectations = [
        Expectation(file: "libheif-fuzz-avif32-mini.heif", engine: "libheif", width: 32, height: 32, alpha: false),
        Expectation(file: "libheif-fuzz-hevc32-mini.heif", engine: "tiles", width: 64, height: 64, alpha: false),
        Expectation(file: "libheif-mini-simple-osm-tile-alpha.avif", engine: "libheif", width: 256, height: 256, alpha: true),
    ]

    static func path(_ file: String) throws -> String {
        let path = try #require(Tool.corpusWide) + "/mini/" + file
        try #require(FileManager.default.fileExists(atPath: path), "\(file) is missing from corpus-wide/mini")
        return path
    }

    /// The equivalent HEIF the converter reads, written out for the reference decoders.
    static func translatedFile(_ path: String, in scratch: TemporaryDirectory) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let translated = try #require(try MinimizedImage.translating(MemoryByteSource(bytes)))
        return scratch.file("translated.heif", try translated.read(at: 0, count: translated.size))
    }

    /// The independent reference of the upright picture, flattened on `background`.
    static func reference(_ translated: String, engine: String, background: (UInt8, UInt8, UInt8)) throws -> RGBPicture {
        guard engine == "tiles" else { return try #require(Reference.heif(translated, background: background)) }
        let (image, structure, _) = try #require(try EnginePlanes.decode(translated))
        return try TileReference.planes(translated, image, structure).planes.rgb
    }

    @Test("Each converts, by the expected engine, as close to an independent decode as a plain JPEG of it", arguments: expectations)
    func converts(_ expected: Expectation) throws {
        let path = try Self.path(expected.file)
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[expected.file])
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == expected.engine, "\(entry)")
        #expect(entry["warnings"] as? [String] == [], "\(entry)")
        let stem = (expected.file as NSString).deletingPathExtension
        let output = try #require(Reference.jpeg(scratch.sub("out/\(stem).jpg")))
        #expect((output.picture.width, output.picture.height) == (expected.width, expected.height))

        let reference = try Self.reference(try Self.translatedFile(path, in: scratch), engine: expected.engine, background: (255, 255, 255))
        let psnr = output.picture.psnr(against: reference)
        let ceiling = Reference.jpegCeiling(reference, components: 3)
        #expect(psnr >= min(ceiling - 0.5, 40), "\(expected.file): \(psnr) dB against the reference, a plain JPEG of it \(ceiling) dB")
        if expected.alpha {
            // The alpha plane was honoured: flattened onto the (white) background, not dropped.
            let onBlack = try Self.reference(try Self.translatedFile(path, in: scratch), engine: expected.engine, background: (0, 0, 0))
            #expect(output.picture.psnr(against: onBlack) < 25, "the transparent areas are white, not the colour plane's")
        }
    }

    @Test("inspect says it is a mini file, with its own brands and size, and lists the alpha plane")
    func inspect() throws {
        let path = try Self.path("libheif-mini-simple-osm-tile-alpha.avif")
        let outcome = try Tool.run(["inspect", "--json", path])
        let entry = try #require((try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]])?.first)
        #expect(entry["layout"] as? String == "mini" && entry["format"] as? String == "avif" && entry["bytes"] as? Int == 1939)
        #expect((entry["brands"] as? [String: Any])?["major"] as? String == "mif3")
        let images = try #require(entry["images"] as? [[String: Any]])
        #expect(images.count == 2)
        #expect((images.last?["auxiliary"] as? [String: Any])?["kind"] as? String == "alpha", "\(images)")
        let text = try Tool.run(["inspect", path]).stdoutText
        #expect(text.contains("layout              mini"), "\(text)")
    }

    @Test("compare converts a mini file in both modes and measures it against libheif's decode of the same HEIF")
    func compare() throws {
        let outcome = try Tool.run(["compare", "--json", try Self.path("libheif-fuzz-hevc32-mini.heif")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require((try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]])?.first)
        #expect(entry["width"] as? Int == 64 && entry["height"] as? Int == 64, "\(entry)")
    }
}
