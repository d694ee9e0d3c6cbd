import Foundation
import H2JContainer
import H2JReferenceDecoders
import H2JSupport
import H2JTestSupport
import Testing

/// Uncompressed (`unci`, ISO/IEC 23001-17) images of `../shared/corpus-wide/structure`,
/// decoded by heic2jpg's own decoder. libheif 1.15 and pillow-heif (libheif 1.23, built
/// without it) decode none of them, so each is checked against what it is known to
/// hold: libheif's test pictures (`KnownPictures`, from libheif's own tests), the PNG
/// KImageFormats keeps beside its Brotli file (pixel values quoted), and for libheif's
/// 32×32 fuzzing seed the same picture coded as a JPEG item in the same corpus.
@Suite("End to end: uncompressed (unci) images", .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
struct UncompressedEndToEndTests {
    struct Expectation: Sendable, CustomStringConvertible {
        let file: String
        let width: Int
        let height: Int
        /// The picture the file holds, flattened on white.
        let picture: @Sendable () -> RGBPicture
        var description: String { file }
    }

    static let expectations = [
        Expectation(file: "libheif-unci-comp-M-mono.heif", width: 30, height: 20) {
            KnownPictures.redAsGray(KnownPictures.blocks(width: 30, height: 20))
        },
        Expectation(file: "libheif-unci-comp-RGB.heif", width: 30, height: 20) { KnownPictures.blocks(width: 30, height: 20) },
        Expectation(file: "libheif-unci-pix-B16R16G16-16bit.heif", width: 30, height: 20) { KnownPictures.blocks(width: 30, height: 20) },
        Expectation(file: "libheif-unci-row-R5G6B5-tiled.heif", width: 30, height: 20) {
            KnownPictures.quantized(KnownPictures.blocks(width: 30, height: 20), bits: [5, 6, 5])
        },
        Expectation(file: "libheif-unci-tile-RGB-row-tile-align.heif", width: 30, height: 20) {
            KnownPictures.blocks(width: 30, height: 20)
        },
        Expectation(file: "libheif-unci-pix-RGBA-bsz0-psz10-tiled.heif", width: 30, height: 20) {
            KnownPictures.fadingRows(KnownPictures.blocks(width: 30, height: 20))
        },
        Expectation(file: "libheif-unci-mix-YUV-422.heif", width: 32, height: 20) { KnownPictures.blocks(width: 32, height: 20) },
        Expectation(file: "libheif-unci-deflate-per-tile.heif", width: 128, height: 72) { KnownPictures.genericBlocks() },
        Expectation(file: "libheif-unci-zlib-rows.heif", width: 128, height: 72) { KnownPictures.genericBlocks() },
        Expectation(file: "libheif-unci-zlib-tiled.heif", width: 128, height: 72) { KnownPictures.genericBlocks() },
    ]

    static func path(_ file: String) throws -> String {
        let path = try #require(Tool.corpusWide) + "/structure/" + file
        try #require(FileManager.default.fileExists(atPath: path), "\(file) is missing from corpus-wide/structure")
        return path
    }

    /// Converts `file` into `scratch/out` with a report; the report's entry and the decoded output.
    static func convert(_ file: String, in scratch: TemporaryDirectory, _ options: [String] = [])
        throws -> (entry: [String: Any], output: RGBPicture) {
        let outcome = try Tool.run(options + ["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), try path(file)])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[file])
        let stem = (file as NSString).deletingPathExtension
        return (entry, try #require(Reference.jpeg(scratch.sub("out/\(stem).jpg"))).picture)
    }

    @Test("libheif's unci test files convert to the pictures they hold: luma within a q90 JPEG's loss, colour as close as a plain q90 JPEG of the picture",
          arguments: expectations)
    func known(_ expected: Expectation) throws {
        let scratch = TemporaryDirectory()
        let (entry, output) = try Self.convert(expected.file, in: scratch)
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == "unci", "\(entry)")
        #expect(entry["warnings"] as? [String] == [], "\(entry)")
        try #require((output.width, output.height) == (expected.width, expected.height))
        let picture = expected.picture()
        // 4:2:0 chroma cannot follow 4-pixel colour blocks (a plain JPEG of the picture
        // reaches 18 dB RGB), so colour is held to that ceiling and luma to 35 dB.
        let luma = KnownPictures.lumaPSNR(output, picture)
        #expect(luma >= 35, "\(expected.file): luma \(luma) dB")
        let ceiling = Reference.jpegCeiling(picture, components: 3)
        #expect(output.psnr(against: picture) >= ceiling - 0.5, "\(expected.file): \(output.psnr(against: picture)) dB, ceiling \(ceiling)")
    }

    @Test("the monochrome file becomes a grayscale JPEG")
    func gray() throws {
        let scratch = TemporaryDirectory()
        _ = try Self.convert("libheif-unci-comp-M-mono.heif", in: scratch)
        #expect(try #require(Reference.jpeg(scratch.sub("out/libheif-unci-comp-M-mono.jpg"))).components == 1)
    }

    @Test("KImageFormats' Brotli-compressed RGBA image: its PNG's pixels, alpha flattened onto the background")
    func brotli() throws {
        let file = "kimageformats-unci-brotli-cmpC.heif"
        let scratch = TemporaryDirectory()
        let (entry, output) = try Self.convert(file, in: scratch)
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == "unci", "\(entry)")
        try #require((output.width, output.height) == (256, 256))
        func pixel(_ picture: RGBPicture, _ x: Int, _ y: Int) -> [Int] {
            (0..<3).map { Int(picture.pixels[(y * picture.width + x) * 3 + $0]) }
        }
        // brotli.png: (0, 0) is transparent, (128, 128) opaque (29, 162, 246).
        #expect(pixel(output, 0, 0).allSatisfy { $0 >= 250 }, "\(pixel(output, 0, 0))")
        #expect(zip(pixel(output, 128, 128), [29, 162, 246]).allSatisfy { abs($0 - $1) <= 6 }, "\(pixel(output, 128, 128))")
        let blackScratch = TemporaryDirectory()
        let black = try Self.convert(file, in: blackScratch, ["--background", "#000000"]).output
        #expect(pixel(black, 0, 0).allSatisfy { $0 <= 5 }, "\(pixel(black, 0, 0))")
        // Its ICC profile (a 'prof' colr) is carried.
        let segments = try #require(JPEGSegments(path: scratch.sub("out/kimageformats-unci-brotli-cmpC.jpg")))
        #expect(segments.icc?.count == 672)
    }

    @Test("libheif's 32×32 unci fuzzing seed holds the picture its JPEG seed holds")
    func fuzzSeed() throws {
        let scratch = TemporaryDirectory()
        let (entry, output) = try Self.convert("libheif-fuzz-unci32.heif", in: scratch)
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == "unci", "\(entry)")
        let bytes = MemoryByteSource([UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.path("libheif-fuzz-jpeg32.heif")))))
        let codestream = try HEIFStructure.read(from: bytes).jpegCodestream(of: 1, from: bytes)
        let reference = try #require(Reference.jpeg(bytes: codestream)).picture
        #expect(KnownPictures.lumaPSNR(output, reference) >= 40, "\(KnownPictures.lumaPSNR(output, reference)) dB")
    }

    @Test("inspect reads bit depth and chroma from uncC")
    func inspect() throws {
        let text = try Tool.run(["inspect", try Self.path("libheif-unci-mix-YUV-422.heif"), try Self.path("libheif-unci-pix-B16R16G16-16bit.heif")]).stdoutText
        #expect(text.contains("chroma            4:2:2") && text.contains("bit depth         16"), "\(text)")
    }
}
