import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// `--colorspace srgb`: the output's pixels against Pillow's ImageCms (LittleCMS, relative
/// colorimetric with black-point compensation) applied to libheif's decode of the source;
/// the output tagged with the sRGB profile, EXIF ColorSpace 1; sRGB and gray sources
/// keep their pixels.
@Suite("End to end: --colorspace srgb")
struct ColourSpaceEndToEndTests {
    /// `picture` converted from `profile` to sRGB by Pillow's ImageCms (`/usr/bin/python3`).
    static func imageCms(_ picture: RGBPicture, from profile: [UInt8]) throws -> RGBPicture {
        let scratch = TemporaryDirectory()
        let header = Array("P6\n\(picture.width) \(picture.height)\n255\n".utf8)
        let input = scratch.file("in.ppm", header + picture.pixels), icc = scratch.file("source.icc", profile)
        let output = scratch.sub("out.ppm")
        let script = """
            import sys
            from PIL import Image, ImageCms
            flags = getattr(getattr(ImageCms, "Flags", None), "BLACKPOINTCOMPENSATION", 0x2000)
            image = Image.open(sys.argv[1])
            ImageCms.profileToProfile(image, ImageCms.getOpenProfile(sys.argv[2]), ImageCms.createProfile("sRGB"),
                                      renderingIntent=1, flags=flags).save(sys.argv[3])
            """
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script, input, icc, output])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: output)))
        return RGBPicture(width: picture.width, height: picture.height, pixels: Array(bytes.suffix(picture.pixels.count)))
    }

    /// Converts `sources` into `scratch`/`name` with `arguments`.
    static func convert(_ sources: [String], _ arguments: [String], into directory: String) throws {
        let outcome = try Tool.run(arguments + ["-o", directory] + sources)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    static func profileDescription(_ path: String) throws -> String? {
        ExifTool.tag(try ExifTool.tags(atPath: path), "ProfileDescription")
    }

    @Test("A Display P3 sample (nclx only) comes out as ImageCms converts it, tagged sRGB; an sRGB photo keeps its pixels and gets ColorSpace 1; gray passes unchanged")
    func samples() throws {
        let scratch = TemporaryDirectory()
        let names = ["p3-nclx-only", "photo-exif-gps-xmp-icc", "monochrome"]
        let sources = names.map { Tool.samples + "/\($0).heic" }
        try Self.convert(sources, [], into: scratch.sub("keep"))
        try Self.convert(sources, ["--colorspace", "srgb"], into: scratch.sub("srgb"))
        try Self.convert(sources, ["--colorspace", "srgb", "--metadata", "strip"], into: scratch.sub("strip"))
        func output(_ mode: String, _ name: String) -> String { scratch.sub("\(mode)/\(name).jpg") }

        // Display P3 (nclx 12/13): keep mode's profile is the one the conversion starts from.
        let p3 = try #require(JPEGSegments(path: output("keep", "p3-nclx-only"))?.icc)
        let expected = try Self.imageCms(try #require(Reference.heif(sources[0])), from: p3)
        let converted = try #require(Reference.jpeg(output("srgb", "p3-nclx-only"))?.picture)
        let kept = try #require(Reference.jpeg(output("keep", "p3-nclx-only"))?.picture)
        // The test card's saturated edges, subsampled twice (HEVC's 4:2:0, then the JPEG's
        // from RGB), stay within 1.5 dB of a plain JPEG round trip of the reference (36.1 dB).
        let ceiling = Reference.jpegCeiling(expected, components: 3)
        #expect(converted.psnr(against: expected) >= ceiling - 1.5, "\(converted.psnr(against: expected)) dB, ceiling \(ceiling) dB")
        #expect(kept.psnr(against: expected) < 30, "the sample's saturated colours move: \(kept.psnr(against: expected)) dB unconverted")
        for mode in ["srgb", "strip"] {
            #expect(try Self.profileDescription(output(mode, "p3-nclx-only")) == "sRGB built-in", "\(mode)")
            #expect(try Self.profileDescription(output(mode, "photo-exif-gps-xmp-icc")) == "sRGB built-in", "\(mode)")
        }

        // Already sRGB: the very image data of keep mode; the EXIF says sRGB now (it said Uncalibrated).
        let photo = (keep: output("keep", "photo-exif-gps-xmp-icc"), srgb: output("srgb", "photo-exif-gps-xmp-icc"))
        #expect(JPEGSegments.imageData(path: photo.srgb) == JPEGSegments.imageData(path: photo.keep))
        #expect(ExifTool.tag(try ExifTool.tags(atPath: photo.keep), "ColorSpace") == "65535")
        #expect(ExifTool.tag(try ExifTool.tags(atPath: photo.srgb), "ColorSpace") == "1")
        #expect(ExifTool.tag(try ExifTool.tags(atPath: output("strip", "photo-exif-gps-xmp-icc")), "ColorSpace") == nil, "strip writes no EXIF")

        // Gray: nothing to convert, nothing to tag.
        #expect(FileManager.default.contents(atPath: output("srgb", "monochrome")) == FileManager.default.contents(atPath: output("keep", "monochrome")))
    }

    @Test("A Display P3 iPhone photo (tile engine, Ultra HDR) matches ImageCms to 36 dB, closer than unconverted; sRGB profile, ColorSpace 1, gain map kept",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func iPhone() throws {
        let source = try #require(Tool.corpus) + "/iphone/iphone13pro-depth-gainmap.heic"
        let scratch = TemporaryDirectory()
        try Self.convert([source], [], into: scratch.sub("keep"))
        try Self.convert([source], ["--colorspace", "srgb"], into: scratch.sub("srgb"))
        let srgb = scratch.sub("srgb/iphone13pro-depth-gainmap.jpg"), keep = scratch.sub("keep/iphone13pro-depth-gainmap.jpg")
        let expected = try Self.imageCms(try #require(Reference.heif(source)), from: try #require(Reference.heifICC(source)))
        let converted = try #require(Reference.jpeg(srgb)?.picture), kept = try #require(Reference.jpeg(keep)?.picture)
        let (psnr, unconverted) = (converted.psnr(against: expected), kept.psnr(against: expected))
        #expect(psnr >= 36 && psnr > unconverted, "\(psnr) dB converted, \(unconverted) dB unconverted")
        let tags = try ExifTool.tags(atPath: srgb)
        #expect(ExifTool.tag(tags, "ProfileDescription") == "sRGB built-in")
        #expect(ExifTool.tag(tags, "ColorSpace") == "1")
        #expect(ExifTool.tag(tags, "NumberOfImages") == "2", "the Ultra HDR gain map is still there")
    }

    @Test("A JPEG item already sRGB is still copied losslessly, and tagged with the sRGB profile and ColorSpace 1",
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
    func copiedJPEGItem() throws {
        let source = try #require(Tool.corpusWide) + "/structure/kimageformats-jpeg-in-heif.heif"
        let scratch = TemporaryDirectory()
        try Self.convert([source], [], into: scratch.sub("keep"))
        try Self.convert([source], ["--colorspace", "srgb"], into: scratch.sub("srgb"))
        let keep = scratch.sub("keep/kimageformats-jpeg-in-heif.jpg"), srgb = scratch.sub("srgb/kimageformats-jpeg-in-heif.jpg")
        #expect(try Self.profileDescription(keep) == "GIMP built-in sRGB")
        #expect(JPEGSegments.imageData(path: srgb) == JPEGSegments.imageData(path: keep))
        #expect(try Self.profileDescription(srgb) == "sRGB built-in")
    }

    @Test("A profile LittleCMS cannot read fails the image with a reason in srgb mode; keep mode still copies it")
    func unreadableProfile() throws {
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic")))
        let signature = Array("acsp".utf8)
        let at = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 4, bytes.count)]) == signature }, "the ICC header")
        bytes.replaceSubrange(at..<(at + 4), with: Array("xxxx".utf8))
        let scratch = TemporaryDirectory()
        let source = scratch.file("broken-icc.heic", bytes)
        let srgb = try Tool.run(["--colorspace", "srgb", "-o", scratch.sub("srgb"), source])
        #expect(srgb.status == 1)
        #expect(srgb.stderr.contains("cannot convert to sRGB: LittleCMS cannot read the source's ICC profile"), "\(srgb.stderr)")
        #expect(try Tool.run(["-o", scratch.sub("keep"), source]).status == 0)
    }
}
