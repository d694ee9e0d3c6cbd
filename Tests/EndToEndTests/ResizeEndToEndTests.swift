import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// `--max-size` and `--thumbnail` through the built binary: output sizes, pixels against
/// Pillow's Lanczos resize of libheif's decode, EXIF dimensions, the gain map scaled
/// with its primary, and the embedded thumbnail taken or refused.
@Suite("End to end: --max-size and --thumbnail")
struct ResizeEndToEndTests {
    /// Converts `source` with `arguments` into a fresh directory; the output's bytes.
    static func convert(_ source: String, _ arguments: [String]) throws -> (bytes: [UInt8], stderr: String) {
        let scratch = TemporaryDirectory()
        let run = try Tool.run(arguments + ["-v", "-o", scratch.path, source])
        #expect(run.status == 0, "\(run.stderr)")
        let name = try #require(scratch.files().first)
        return ([UInt8](try #require(FileManager.default.contents(atPath: scratch.sub(name)))), run.stderr)
    }

    /// Pillow's `Image.resize(LANCZOS)` of `picture` to `width`×`height`.
    static func pillowLanczos(_ picture: RGBPicture, width: Int, height: Int) throws -> RGBPicture {
        let scratch = TemporaryDirectory()
        let ppm = Array("P6 \(picture.width) \(picture.height) 255\n".utf8) + picture.pixels
        let input = scratch.file("in.ppm", ppm), output = scratch.sub("out.ppm")
        let script = "import sys; from PIL import Image; Image.open(sys.argv[1]).resize((\(width), \(height)), Image.LANCZOS).save(sys.argv[2])"
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script, input, output])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: output)))
        return RGBPicture(width: width, height: height, pixels: Array(bytes.suffix(width * height * 3)))
    }

    /// A tag's value whatever its group.
    static func tag(_ tags: [String: String], _ name: String) -> String? { tags.first { $0.key.hasSuffix(":" + name) }?.value }

    @Test("Output sizes: N and WxH boxes keep the aspect ratio; a source inside the box is written exactly as without the option")
    func sizes() throws {
        let photo = Tool.samples + "/photo-exif-gps-xmp-icc.heic"  // 512×384
        for (box, size) in [("256", (256, 192)), ("100x300", (100, 75)), ("400x150", (200, 150)), ("300", (300, 225))] {
            let output = try Self.convert(photo, ["--max-size", box])
            let picture = try #require(Reference.jpeg(bytes: output.bytes)?.picture)
            #expect((picture.width, picture.height) == size, "--max-size \(box)")
            let tags = try ExifTool.tags(of: output.bytes)
            #expect(Self.tag(tags, "ExifImageWidth") == "\(size.0)" && Self.tag(tags, "ExifImageHeight") == "\(size.1)", "\(tags)")
        }
        let rotated = Tool.samples + "/grid-rotated-mirrored.heic"  // 350×600 upright
        let turned = try #require(Reference.jpeg(bytes: try Self.convert(rotated, ["--max-size", "120"]).bytes)?.picture)
        #expect((turned.width, turned.height) == (70, 120))
        for file in [photo, rotated] {
            #expect(try Self.convert(file, ["--max-size", "600"]).bytes == (try Self.convert(file, [])).bytes, "\(file)")
        }
    }

    @Test("Pixels: PSNR ≥ 35 dB against Pillow's Lanczos resize of libheif's decode, tile engine and libheif engine")
    func againstPillow() throws {
        for (file, engine) in [("photo-exif-gps-xmp-icc.heic", "tiles"), ("10bit-gradient.heic", "libheif")] {
            let path = Tool.samples + "/" + file
            let output = try Self.convert(path, ["--max-size", "300"])
            #expect(output.stderr.contains("[engine \(engine)"), "\(output.stderr)")
            let picture = try #require(Reference.jpeg(bytes: output.bytes)?.picture)
            let reference = try Self.pillowLanczos(try #require(Reference.heif(path)), width: picture.width, height: picture.height)
            #expect(picture.psnr(against: reference) >= 35, "\(file): \(picture.psnr(against: reference)) dB")
        }
    }

    @Test("An Ultra HDR output's gain map is scaled as its primary is")
    func gainMap() throws {
        let plain = try Self.convert(Tool.samples + "/gainmap-apple.heic", [])
        let resized = try Self.convert(Tool.samples + "/gainmap-apple.heic", ["--max-size", "100"])
        let scratch = TemporaryDirectory()
        func size(_ jpeg: [UInt8]) throws -> (Int, Int) {
            let picture = try #require(Reference.jpeg(bytes: jpeg)?.picture)
            return (picture.width, picture.height)
        }
        let primary = try size(plain.bytes), out = try size(resized.bytes)
        let map = try size(try ExifTool.output(["-b", "-MPImage2", scratch.file("plain.jpg", plain.bytes)]))
        let scaled = try size(try ExifTool.output(["-b", "-MPImage2", scratch.file("resized.jpg", resized.bytes)]))
        #expect(out == (100, 67))
        let expected = (Int((Double(map.0 * out.0) / Double(primary.0)).rounded()), Int((Double(map.1 * out.1) / Double(primary.1)).rounded()))
        #expect(scaled == expected, "gain map \(map) of \(primary) → \(scaled) for \(out)")
    }

    @Test("--thumbnail takes the embedded thumbnail when it is big enough, and scales the primary when not",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func thumbnail() throws {
        let file = try #require(Tool.corpus) + "/iphone/iphone8plus-rot90-thumb.heic"  // 3024×4032, thumbnail 240×320
        let taken = try Self.convert(file, ["--max-size", "200", "--thumbnail"])
        #expect(taken.stderr.contains("the embedded thumbnail (item"), "\(taken.stderr)")
        let refused = try Self.convert(file, ["--max-size", "400", "--thumbnail"])
        #expect(!refused.stderr.contains("embedded thumbnail"), "\(refused.stderr)")
        let scaled = try Self.convert(file, ["--max-size", "200"])
        let a = try #require(Reference.jpeg(bytes: taken.bytes)?.picture), b = try #require(Reference.jpeg(bytes: scaled.bytes)?.picture)
        #expect((a.width, a.height) == (150, 200) && (b.width, b.height) == (150, 200))
        #expect(a.psnr(against: b) >= 25, "the thumbnail shows the photo: \(a.psnr(against: b)) dB")
        let tags = try ExifTool.tags(of: taken.bytes)
        #expect(Self.tag(tags, "ExifImageWidth") == "150" && Self.tag(tags, "Make") == "Apple", "the primary's EXIF, the output's size: \(tags)")
        let usage = try Tool.run(["--thumbnail", file])
        #expect(usage.status == 64 && usage.stderr.contains("'--thumbnail' goes with '--max-size'"))
    }

    @Test("An EXIF thumbnail (IFD1) is kept at the source's size and left out of a resized output",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func exifThumbnail() throws {
        let file = try #require(Tool.corpus) + "/android/xiaomi-exif-192k.heic"
        let plain = try ExifTool.tags(of: try Self.convert(file, []).bytes)
        let resized = try ExifTool.tags(of: try Self.convert(file, ["--max-size", "512"]).bytes)
        #expect(plain.keys.contains { $0.hasPrefix("IFD1:") }, "\(plain.keys.sorted())")
        #expect(!resized.keys.contains { $0.hasPrefix("IFD1:") }, "\(resized.keys.sorted())")
        #expect(Self.tag(resized, "ExifImageWidth") == "512" && Self.tag(resized, "Make") == Self.tag(plain, "Make"))
    }
}
