import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// Every image reaches the encoder through the one pixel stage (`PixelStage`): a
/// test-only step, switched on by `HEIC2JPG_TEST_PIXEL_OPERATION=invert` and added in
/// that one place, turns the primary, another still image, an auxiliary image and a gain
/// map into their negatives, whichever engine decodes them.
@Suite("End to end: one pixel stage for every image kind")
struct PixelStageEndToEndTests {
    /// Converts `source` with `arguments` twice, plainly and with the inversion step;
    /// returns each output file's bytes of both runs, by name.
    static func bothWays(_ source: String, _ arguments: [String]) throws -> [String: (plain: [UInt8], inverted: [UInt8])] {
        let scratch = TemporaryDirectory()
        let plain = try Tool.run(arguments + ["-o", scratch.sub("plain"), source])
        #expect(plain.status == 0, "\(plain.stderr)")
        let inverted = try Tool.run(["HEIC2JPG_TEST_PIXEL_OPERATION=invert", Tool.binary] + arguments + ["-o", scratch.sub("inverted"), source],
                                    executable: "/usr/bin/env")
        #expect(inverted.status == 0, "\(inverted.stderr)")
        #expect(scratch.files("plain") == scratch.files("inverted"))
        var outputs: [String: (plain: [UInt8], inverted: [UInt8])] = [:]
        for name in scratch.files("plain") {
            let a = [UInt8](try #require(FileManager.default.contents(atPath: scratch.sub("plain/" + name))))
            let b = [UInt8](try #require(FileManager.default.contents(atPath: scratch.sub("inverted/" + name))))
            outputs[name] = (a, b)
        }
        return outputs
    }

    /// Whether `inverted` decodes to the negative of `plain`: every sample of the two
    /// adds up to 255, give or take the encoder's rounding (mean within 3, 99 % within 12).
    static func isNegative(_ plain: [UInt8], _ inverted: [UInt8]) throws -> Bool {
        let a = try #require(Reference.jpeg(bytes: plain)?.picture), b = try #require(Reference.jpeg(bytes: inverted)?.picture)
        guard a.width == b.width, a.height == b.height else { return false }
        var total = 0, far = 0
        for (x, y) in zip(a.pixels, b.pixels) {
            let off = abs(Int(x) + Int(y) - 255)
            total += off
            if off > 12 { far += 1 }
        }
        return Double(total) / Double(a.pixels.count) <= 3 && far * 100 <= a.pixels.count
    }

    /// The second Multi-Picture image of an Ultra HDR JPEG (its gain map), as exiftool extracts it.
    static func gainMap(_ jpeg: [UInt8]) throws -> [UInt8] {
        let directory = TemporaryDirectory()
        return try ExifTool.output(["-b", "-MPImage2", directory.file("ultrahdr.jpg", jpeg)])
    }

    @Test("The primary (tile engine), a second still image, an alpha plane written with --aux (libheif) and a gain map all come out as negatives")
    func everyImageKind() throws {
        let collection = try Self.bothWays(Tool.samples + "/collection-3-images.heic", ["--images", "all"])
        for name in ["collection-3-images.jpg", "collection-3-images-2.jpg"] {
            let output = try #require(collection[name], "\(name) in \(collection.keys.sorted())")
            #expect(try Self.isNegative(output.plain, output.inverted), "\(name)")
        }
        let alpha = try Self.bothWays(Tool.samples + "/alpha-transparent.heic", ["--aux", "alpha"])
        for name in ["alpha-transparent.jpg", "alpha-transparent.alpha.jpg"] {
            let output = try #require(alpha[name], "\(name) in \(alpha.keys.sorted())")
            #expect(try Self.isNegative(output.plain, output.inverted), "\(name)")
        }
        let ultraHDR = try #require(try Self.bothWays(Tool.samples + "/gainmap-apple.heic", [])["gainmap-apple.jpg"])
        #expect(try Self.isNegative(ultraHDR.plain, ultraHDR.inverted), "the SDR primary")
        let plainMap = try Self.gainMap(ultraHDR.plain), invertedMap = try Self.gainMap(ultraHDR.inverted)
        #expect(!plainMap.isEmpty && !invertedMap.isEmpty)
        #expect(try Self.isNegative(plainMap, invertedMap), "the gain map")
    }

    @Test("A JPEG item, copied losslessly otherwise, is decoded and encoded again when a pixel step runs; an uncompressed image too",
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
    func jpegAndUncompressedItems() throws {
        let structure = try #require(Tool.corpusWide) + "/structure/"
        for file in ["kimageformats-jpeg-in-heif.heif", "libheif-unci-comp-RGB.heif"] {
            let outputs = try Self.bothWays(structure + file, [])
            #expect(!outputs.isEmpty, "\(file)")
            for (name, output) in outputs { #expect(try Self.isNegative(output.plain, output.inverted), "\(name)") }
        }
    }
}
