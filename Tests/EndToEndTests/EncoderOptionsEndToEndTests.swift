import Foundation
import H2JJPEG
import H2JJPEGCodec
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// `--progressive`, `--optimize` and `--sampling` on the built binary: the frame header
/// and tables they write, the pixels they keep, the images they leave alone, and the
/// refusal when libjpeg's coefficient buffer would not fit `--max-memory`.
@Suite("End to end: progressive, optimised and chroma-sampled outputs")
struct EncoderOptionsEndToEndTests {
    /// The tile engine's photo (raw planes) and a 10-bit one libheif decodes (rows).
    static let tilePhoto = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
    static let libheifPhoto = Tool.samples + "/10bit-gradient.heic"

    /// Converts `source` with `arguments`; returns the outcome and each output's bytes by name.
    static func convert(_ source: String, _ arguments: [String] = []) throws -> (Tool.Outcome, [String: [UInt8]]) {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(arguments + ["-o", scratch.sub("out"), source])
        var outputs: [String: [UInt8]] = [:]
        for name in scratch.files("out") {
            outputs[name] = [UInt8](try #require(FileManager.default.contents(atPath: scratch.sub("out/" + name))))
        }
        return (outcome, outputs)
    }

    /// The one output of converting `source`, which must succeed.
    static func output(_ source: String, _ arguments: [String] = []) throws -> [UInt8] {
        let (outcome, outputs) = try convert(source, arguments)
        #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
        return try #require(outputs.count == 1 ? outputs.first?.value : nil, "\(outputs.keys.sorted())")
    }

    static func frame(_ jpeg: [UInt8]) throws -> JPEGFrameHeader { try #require(JPEGSegments(jpeg)?.frameHeader) }

    static func factors(_ jpeg: [UInt8]) throws -> [String] {
        try frame(jpeg).components.map { "\($0.horizontalSampling)x\($0.verticalSampling)" }
    }

    static func huffmanTables(_ jpeg: [UInt8]) throws -> [[UInt8]] {
        let header = try #require(JPEGSegments(jpeg))
        return header.segments.filter { $0.marker == 0xC4 }.map { Array(jpeg[$0.payload]) }
    }

    static func pixels(_ jpeg: [UInt8]) throws -> RGBPicture { try #require(Reference.jpeg(bytes: jpeg)?.picture) }

    /// libjpeg's standard Huffman tables, as a streamed (raw-plane) JPEG carries them.
    static func standardTables() throws -> [[UInt8]] {
        let planes = SyntheticPlanes(width: 16, height: 16, components: 3)
        return try huffmanTables(JPEGTestSupport.encode { writer in
            try writer.startRaw(width: 16, height: 16, components: 3, quality: 90)
            try planes.writeRaw(to: writer, chunk: 16)
            try writer.finish()
        })
    }

    @Test("By default nothing changes: baseline, 4:2:0, the tile engine's standard tables, libheif's optimised ones; --sampling 420 and, on libheif's rows, --optimize are the default bytes")
    func defaults() throws {
        let tiles = try Self.output(Self.tilePhoto), rows = try Self.output(Self.libheifPhoto)
        for jpeg in [tiles, rows] {
            #expect(try Self.frame(jpeg).marker == 0xC0)
            #expect(try Self.factors(jpeg) == ["2x2", "1x1", "1x1"])
        }
        #expect(try Self.huffmanTables(tiles) == Self.standardTables())
        #expect(try Self.huffmanTables(rows) != Self.standardTables())
        #expect(try Self.output(Self.tilePhoto, ["--sampling", "420"]) == tiles)
        #expect(try Self.output(Self.libheifPhoto, ["--optimize"]) == rows)
    }

    @Test("--progressive writes SOF2 and decodes to exactly the baseline's pixels, on the tile engine's planes and libheif's rows",
          arguments: [tilePhoto, libheifPhoto])
    func progressive(source: String) throws {
        let baseline = try Self.output(source), progressive = try Self.output(source, ["--progressive"])
        #expect(try Self.frame(progressive).marker == 0xC2)
        #expect(try Self.pixels(progressive).pixels == Self.pixels(baseline).pixels, "the same quantised coefficients")
        #expect(try Self.output(source, ["--progressive", "--optimize"]) == progressive, "progressive tables are always optimised")
    }

    @Test("--optimize on the tile engine's planes: the same pixels, its own tables, a smaller file")
    func optimize() throws {
        let baseline = try Self.output(Self.tilePhoto), optimised = try Self.output(Self.tilePhoto, ["--optimize"])
        #expect(try Self.frame(optimised).marker == 0xC0)
        #expect(try Self.huffmanTables(optimised) != Self.standardTables())
        #expect(optimised.count < baseline.count, "\(optimised.count) vs \(baseline.count) bytes")
        #expect(try Self.pixels(optimised).pixels == Self.pixels(baseline).pixels)
    }

    @Test("--sampling 444 and 422 write their factors for every component, on planes (upsampled) and rows, and lose nothing against 4:2:0",
          arguments: [tilePhoto, libheifPhoto])
    func sampling(source: String) throws {
        let reference = try #require(Reference.heif(source))
        let subsampled = try Self.pixels(Self.output(source))
        let floor = subsampled.psnr(against: reference)
        for (mode, factors) in [("444", ["1x1", "1x1", "1x1"]), ("422", ["2x1", "1x1", "1x1"])] {
            let jpeg = try Self.output(source, ["--sampling", mode])
            #expect(try Self.factors(jpeg) == factors, "\(mode)")
            let psnr = try Self.pixels(jpeg).psnr(against: reference)
            #expect(psnr >= floor - 0.5, "\(mode): \(psnr) dB against libheif's decode, 4:2:0 \(floor) dB")
            if source == Self.tilePhoto {
                // 4:2:0 planes upsampled as a decoder upsamples them: the picture 4:2:0 shows.
                let same = try Self.pixels(jpeg).psnr(against: subsampled)
                #expect(same >= 38, "\(mode): \(same) dB against the 4:2:0 output")
            }
        }
    }

    @Test("A 4:4:4 or 4:2:2 source keeps its chroma when asked: its factors, and pixels closer to libheif's decode than at 4:2:0",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"),
          arguments: [("synthetic/chroma444-29x100.heif", "444", ["1x1", "1x1", "1x1"], 2.0),
                      ("camera/sony-a7s3-10bit-422.hif", "422", ["2x1", "1x1", "1x1"], 0.2)])
    func sourceChroma(file: String, mode: String, factors: [String], gain: Double) throws {
        let source = try #require(Tool.corpus) + "/" + file
        let reference = try #require(Reference.heif(source))
        let subsampled = try Self.pixels(Self.output(source)).psnr(against: reference)
        let kept = try Self.output(source, ["--sampling", mode])
        #expect(try Self.factors(kept) == factors)
        let psnr = try Self.pixels(kept).psnr(against: reference)
        #expect(psnr >= subsampled + gain, "\(file): \(psnr) dB at \(mode), \(subsampled) dB at 4:2:0")
    }

    @Test("--sampling applies to a photo's colour only: an alpha plane stays gray, a gain map keeps its own sampling")
    func samplingLeavesAuxiliaries() throws {
        let (outcome, alpha) = try Self.convert(Tool.samples + "/alpha-transparent.heic", ["--aux", "alpha", "--sampling", "444"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try Self.factors(try #require(alpha["alpha-transparent.jpg"])) == ["1x1", "1x1", "1x1"])
        #expect(try Self.frame(try #require(alpha["alpha-transparent.alpha.jpg"])).components.count == 1)
        let plain = try Self.output(Tool.samples + "/gainmap-apple.heic")
        let sampled = try Self.output(Tool.samples + "/gainmap-apple.heic", ["--sampling", "444"])
        #expect(try Self.factors(sampled) == ["1x1", "1x1", "1x1"])
        let plainMap = try PixelStageEndToEndTests.gainMap(plain), sampledMap = try PixelStageEndToEndTests.gainMap(sampled)
        #expect(try Self.frame(sampledMap) == Self.frame(plainMap))
    }

    @Test("A JPEG item is transcoded losslessly for --progressive, and copied with its own sampling for --sampling",
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
    func jpegItem() throws {
        let source = try #require(Tool.corpusWide) + "/structure/kimageformats-jpeg-in-heif.heif"
        let copied = try Self.output(source)
        let progressive = try Self.output(source, ["--progressive"])
        #expect(try Self.frame(progressive).marker == 0xC2)
        #expect(try Self.pixels(progressive).pixels == Self.pixels(copied).pixels)
        #expect(try Self.output(source, ["--optimize"]).count < copied.count)
        #expect(try Self.output(source, ["--sampling", "444"]) == copied)
    }

    @Test("The coefficient buffer must fit --max-memory less the worker's 64 MiB: 4:2:0 fits 1 MiB, 4:4:4 does not and fails the file")
    func memoryRefusal() throws {
        let scratch = TemporaryDirectory()
        // 512×384: 576 KiB of coefficients at 4:2:0, 1.125 MiB (said 1.2) at 4:4:4.
        let fits = try Tool.run(["--max-memory", "65M", "--progressive", "-o", scratch.sub("fits"), Self.tilePhoto])
        #expect(fits.status == 0, "\(fits.stderr)")
        let report = scratch.sub("report.jsonl")
        let refused = try Tool.run(["--max-memory", "65M", "--progressive", "--sampling", "444", "--report", report,
                                    "-o", scratch.sub("refused"), Self.tilePhoto])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--max-memory") && refused.stderr.contains("1.2 MiB"), "\(refused.stderr)")
        #expect(scratch.files("refused").isEmpty, "no baseline output in its place")
        let entry = try #require(try ReportFile(report).bySource["photo-exif-gps-xmp-icc.heic"])
        #expect(entry["errorCode"] as? String == "limit-exceeded", "\(entry)")
        // Without the options the same limit streams the image as always.
        let streamed = try Tool.run(["--max-memory", "65M", "--sampling", "444", "-o", scratch.sub("streamed"), Self.tilePhoto])
        #expect(streamed.status == 0, "\(streamed.stderr)")
    }

    @Test("sRGB rows made from the tile engine's planes stream as the planes do: standard tables unless asked, and the memory rule with --optimize")
    func srgbRowsStream() throws {
        let p3 = Tool.samples + "/p3-nclx-only.heic"
        let streamed = try Self.output(p3, ["--colorspace", "srgb"])
        #expect(try Self.huffmanTables(streamed) == Self.standardTables())
        let optimised = try Self.output(p3, ["--colorspace", "srgb", "--optimize"])
        #expect(try Self.huffmanTables(optimised) != Self.standardTables())
        #expect(optimised.count < streamed.count, "\(optimised.count) vs \(streamed.count) bytes")
        #expect(try Self.pixels(optimised).pixels == Self.pixels(streamed).pixels)
        let scratch = TemporaryDirectory()
        let refused = try Tool.run(["--max-memory", "65M", "--colorspace", "srgb", "--optimize", "--sampling", "444",
                                    "-o", scratch.sub("refused"), p3])
        #expect(refused.status == 1 && refused.stderr.contains("--max-memory"), "\(refused.stderr)")
    }
}
