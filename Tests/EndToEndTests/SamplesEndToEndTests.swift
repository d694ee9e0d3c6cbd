import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JJPEG
@testable import H2JSupport

/// Runs the built binary over the committed samples and checks real outputs.
@Suite("End to end on Samples/")
struct SamplesEndToEndTests {
    /// HEIF samples (by the names make-samples gives them), relative to Samples/.
    static let heifSamples = ["10bit-gradient.heic", "alpha-transparent.heic", "monochrome-10bit.heic", "monochrome.heic", "nested/IMG_0001.HEIC",
                              "photo-exif-gps-xmp-icc.heic", "rotated-irot270-orientation6.heic", "grid-rotated-mirrored.heic",
                              "p3-nclx-only.heic", "samsung-sefd-trailer.heic", "exif-gps-usercomment-70k.heic",
                              "collection-3-images.heic", "stereo-pair-ster.heic", "stereo-mvhevc-lhv1.heic", "gainmap-apple.heic", "gainmap-tmap.heic",
                              "gainmap-samsung-hdrgm.heic", "gainmap-samsung-hdrgm-irot90.heic", "hdr-pq-ramp.heic", "hdr-hlg-ramp.heic"]

    /// PQ and HLG samples: tone-mapped, so their pixels are checked by ToneMappingEndToEndTests.
    static let toneMapped: Set = ["hdr-pq-ramp.heic", "hdr-hlg-ramp.heic"]

    func stem(_ relative: String) -> String { (relative as NSString).deletingPathExtension }

    @Test("keep mode: every sample converts, upright, faithful, with metadata")
    func keepMode() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("report.jsonl"), Tool.samples])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("heic2jpg: 26 converted, 1 copied, 0 skipped, 0 failed in "))
        // The mini sample has its own tests (MiniSampleEndToEndTests): libheif 1.15 cannot read it;
        // so have the derived samples and the overlay sample (DerivedImageEndToEndTests,
        // ImageCrashEndToEndTests), which heic2jpg composes itself, and the one whose pitm
        // names its tmap (UltraHDREndToEndTests), which libheif 1.15 refuses.
        let others = ["collection-3-images-2.jpg", "collection-3-images-3.jpg", "mini-hevc-orientation6.jpg",
                      "overlay-alpha-negative-offset.jpg", "overlay-alpha-negative-offset-2.jpg", "overlay-negative-offsets.jpg",
                      "iden-chain-irot-clap.jpg", "grid-of-iden-tiles.jpg", "gainmap-tmap-primary.jpg"]
        #expect(scratch.files("out") == (Self.heifSamples.map { stem($0) + ".jpg" } + ["actually-a-jpeg.jpg"] + others).sorted())
        for sample in Self.heifSamples {
            let problems = try OutputCheck.problems(source: Tool.samples + "/" + sample, output: scratch.sub("out/\(stem(sample)).jpg"),
                                                    comparePixels: !Self.toneMapped.contains(sample))
            #expect(problems.isEmpty, "\(sample): \(problems.joined(separator: "; "))")
        }
        // The rotated sample is stored landscape and displays portrait.
        let rotated = Reference.jpeg(scratch.sub("out/rotated-irot270-orientation6.jpg"))
        #expect(rotated?.picture.width == 384 && rotated?.picture.height == 512)
        #expect(Reference.jpeg(scratch.sub("out/monochrome.jpg"))?.components == 1)
        #expect(Reference.jpeg(scratch.sub("out/monochrome-10bit.jpg"))?.components == 1)
        // JPEG content under a HEIF name is copied byte for byte.
        #expect(FileManager.default.contents(atPath: scratch.sub("out/actually-a-jpeg.jpg"))
                == FileManager.default.contents(atPath: Tool.samples + "/actually-a-jpeg.heic"))
        // Outputs carry their source's modification time.
        let attributes = { (path: String) in try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date }
        #expect(try attributes(scratch.sub("out/monochrome.jpg")) == attributes(Tool.samples + "/monochrome.heic"))
        // The report has one line per input plus the summary.
        let report = try String(contentsOfFile: scratch.sub("report.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(report.count == 28)
        let lines = try report.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        func line(_ name: String) -> [String: Any]? { lines.first { ($0["source"] as? String)?.hasSuffix(name) == true } }
        let photo = line("photo-exif-gps-xmp-icc.heic")
        #expect(photo?["status"] as? String == "converted")
        #expect((photo?["metadata"] as? [String: Bool]) == ["exif": true, "xmp": true, "icc": true])
        #expect(photo?["width"] as? Int == 512)
        // Which engine ran, and why not the tile engine.
        for name in ["photo-exif-gps-xmp-icc.heic", "grid-rotated-mirrored.heic", "rotated-irot270-orientation6.heic", "monochrome.heic"] {
            #expect(line(name)?["engine"] as? String == "tiles", "\(name)")
            #expect(line(name)?["engineReason"] is NSNull, "\(name)")
        }
        #expect(line("alpha-transparent.heic")?["engine"] as? String == "libheif")
        #expect(line("alpha-transparent.heic")?["engineReason"] as? String == "alpha channel")
        #expect(line("10bit-gradient.heic")?["engineReason"] as? String == "10-bit samples")
        #expect(line("actually-a-jpeg.heic")?["engine"] is NSNull)
    }

    @Test("A collection: inspect lists every image; every image becomes a JPEG with its own pixels, listed in the report; --images primary names the others")
    func collection() throws {
        let collection = Tool.samples + "/collection-3-images.heic"
        let inspected = try Tool.run(["inspect", collection]).stdoutText
        #expect(inspected.components(separatedBy: "hvc1 384×256").count - 1 == 3, "\(inspected)")
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), collection])
        #expect(outcome.status == 0 && !outcome.stderr.contains("not converted"), "\(outcome.stderr)")
        let names = ["collection-3-images.jpg", "collection-3-images-2.jpg", "collection-3-images-3.jpg"]
        #expect(scratch.files("out") == names.sorted())
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["collection-3-images.heic"])
        let outputs = try #require(entry["outputs"] as? [[String: Any]])
        #expect(outputs.map { $0["item"] as? Int } == [1, 2, 3])
        let references = Reference.heifImages(collection)
        #expect(references.count == 3, "libheif's top-level images")
        for (index, output) in outputs.enumerated() {
            let path = scratch.sub("out/" + names[index])
            #expect(output["path"] as? String == path)
            #expect(output["kind"] as? String == (index == 0 ? "primary" : "image"))
            let data = try #require(FileManager.default.contents(atPath: path))
            #expect(output["sha256"] as? String == (try InspectEndToEndTests.sha256(path)) && output["bytes"] as? Int == data.count)
            try Self.expectPixels(of: [UInt8](data), item: UInt32(index + 1), in: references, name: names[index])
        }
        let primaryOnly = try Tool.run(["-v", "--images", "primary", "-o", scratch.sub("primary"), collection])
        #expect(primaryOnly.status == 0 && scratch.files("primary") == ["collection-3-images.jpg"])
        #expect(primaryOnly.stderr.contains("\(collection): left out as asked: 2 more images (#2, #3) (--images all writes them)\n"),
                "\(primaryOnly.stderr)")
    }

    @Test("A stereo pair ('ster' group) becomes one MPO, left view first, both MP type disparity, which exiftool validates; --stereo split writes NAME-left.jpg and NAME-right.jpg")
    func stereoPair() throws {
        let stereo = Tool.samples + "/stereo-pair-ster.heic"
        #expect(try Tool.run(["inspect", stereo]).stdoutText.contains("    ster #4           #1, #2"))
        let references = Reference.heifImages(stereo)
        #expect(references.count == 2, "libheif's top-level images")
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), stereo])
        #expect(outcome.status == 0 && !outcome.stderr.contains("not converted"), "\(outcome.stderr)")
        #expect(scratch.files("out") == ["stereo-pair-ster.jpg"])
        let mpo = scratch.sub("out/stereo-pair-ster.jpg")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: mpo)))
        let mpf = try ExifTool.run(["-MPF:all", "-validate", "-warning", "-a", mpo]).stdoutText
        #expect(mpf.contains("Number Of Images                : 2") && mpf.contains("Validate                        : OK"), "\(mpf)")
        #expect(mpf.components(separatedBy: "Multi-frame Disparity").count - 1 == 2, "\(mpf)")
        let inspect = try Tool.run(["inspect", "--json", mpo])
        let entry = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first)
        let images = try #require(entry["images"] as? [[String: Any]]).compactMap { $0["multiPicture"] as? [String: Any] }
        #expect(images.count == 2)
        for (index, image) in images.enumerated() {
            let start = try #require(image["start"] as? Int), size = try #require(image["bytes"] as? Int)
            try #require(start + size <= bytes.count)
            try Self.expectPixels(of: Array(bytes[start..<(start + size)]), item: UInt32(index + 1), in: references,
                                  name: "view \(index + 1)")
        }
        let split = try Tool.run(["--stereo", "split", "-o", scratch.sub("split"), stereo])
        #expect(split.status == 0 && scratch.files("split") == ["stereo-pair-ster-left.jpg", "stereo-pair-ster-right.jpg"], "\(split.stderr)")
        for (name, item) in [("left", UInt32(1)), ("right", 2)] {
            let data = try #require(FileManager.default.contents(atPath: scratch.sub("split/stereo-pair-ster-\(name).jpg")))
            try Self.expectPixels(of: [UInt8](data), item: item, in: references, name: name)
        }
    }

    /// The JPEG `bytes` shows image `item` of the source (≥ 34 dB against libheif's decode
    /// of it) and not one of the others.
    static func expectPixels(of bytes: [UInt8], item: UInt32, in references: [UInt32: RGBPicture], name: String) throws {
        let decoded = try #require(Reference.jpeg(bytes: bytes)?.picture, "\(name) does not decode")
        let reference = try #require(references[item])
        let psnr = decoded.psnr(against: reference)
        #expect(psnr >= 34, "\(name): \(psnr) dB against libheif's decode of item \(item)")
        for (other, picture) in references where other != item {
            #expect(decoded.psnr(against: picture) < psnr - 3, "\(name) looks like item \(other)")
        }
    }

    @Test("An nclx-only Display P3 source gets a Display P3 ICC profile, in both modes")
    func nclxProfile() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/p3-nclx-only.heic"
        #expect(Reference.heifICC(source) == nil, "the sample carries no ICC profile of its own")
        for mode in ["keep", "strip"] {
            let output = scratch.sub("\(mode).jpg")
            let outcome = try Tool.run(["--metadata", mode, "-o", "-", source])
            try outcome.stdout.write(to: URL(fileURLWithPath: output))
            let tags = try ExifTool.tags(atPath: output)
            #expect("\(tags["ICC_Profile:ProfileDescription"] ?? "")".hasPrefix("Display P3, sRGB transfer"), "\(mode): \(tags)")
            // Display P3's red primary, adapted to D50 (as in Apple's own profile).
            let red = "\(tags["ICC_Profile:RedMatrixColumn"] ?? "")".split(separator: " ").compactMap { Double($0) }
            #expect(red.count == 3 && abs(red[0] - 0.5151) < 0.001 && abs(red[1] - 0.2412) < 0.001, "\(mode): \(red)")
            let validation = try ExifTool.run(["-validate", "-warning", "-a", output])
            #expect(validation.stdoutText.contains("Validate                        : OK"), "\(validation.stdoutText)")
        }
    }

    @Test("A Samsung 'sefd' trailer is appended after EOI in keep mode, and not in strip mode")
    func samsungTrailer() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/samsung-sefd-trailer.heic"
        let expected = ["Samsung:TimeStamp": "2024:05:17 17:23:09.123+00:00", "Samsung:MCCData": "724"]
        let sourceTags = try ExifTool.tags(atPath: source)
        for (key, value) in expected { #expect("\(sourceTags[key] ?? "")" == value, "source \(key)") }
        for mode in ["keep", "strip"] {
            let output = scratch.sub("\(mode).jpg")
            let outcome = try Tool.run(["--metadata", mode, "-o", "-", source])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            try outcome.stdout.write(to: URL(fileURLWithPath: output))
            let tags = try ExifTool.tags(atPath: output)
            for (key, value) in expected {
                #expect("\(tags[key] ?? "")" == (mode == "keep" ? value : ""), "\(mode) \(key): \(tags)")
            }
            // The trailer follows the JPEG's EOI; everything before it is the JPEG itself.
            #expect(Reference.jpeg(output) != nil, "\(mode): the output must still decode")
            let validation = try ExifTool.run(["-validate", "-warning", "-a", output])
            #expect(!validation.stdoutText.contains("trailer"), "\(validation.stdoutText)")
        }
    }

    @Test("--strip-gps removes EXIF and XMP GPS and keeps the rest")
    func stripGPS() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        let outcome = try Tool.run(["--strip-gps", "-o", scratch.sub("out"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let output = scratch.sub("out/photo-exif-gps-xmp-icc.jpg")
        let tags = try ExifTool.tags(atPath: output)
        #expect(!tags.keys.contains { $0.hasPrefix("GPS:") || $0.contains(":GPS") }, "\(tags.keys.sorted())")
        #expect(tags["IFD0:Make"] as? String == "Heic2jpgSamples")
        #expect("\(tags["ExifIFD:DateTimeOriginal"] ?? "")" == "2024:05:17 14:23:09")
        #expect(tags["XMP-dc:Title"] as? String == "heic2jpg sample: photo")
        #expect("\(tags["IFD0:Orientation"] ?? "")" == "1")
        #expect(try ExifTool.tags(atPath: source).keys.contains("GPS:GPSLatitude"), "the sample has GPS to remove")
    }

    @Test("strip mode writes pixels and ICC only")
    func stripMode() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["--metadata", "strip", "-o", scratch.sub("out"), Tool.samples])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for sample in Self.heifSamples {
            let problems = try OutputCheck.problems(source: Tool.samples + "/" + sample, output: scratch.sub("out/\(stem(sample)).jpg"), strip: true,
                                                    comparePixels: !Self.toneMapped.contains(sample))
            #expect(problems.isEmpty, "\(sample): \(problems.joined(separator: "; "))")
        }
        let copied = JPEGSegments(path: scratch.sub("out/actually-a-jpeg.jpg"))
        #expect(copied?.exifSegments == 0 && copied?.hasXMP == false)
    }

    @Test("A second run skips everything and touches nothing")
    func rerun() throws {
        let scratch = TemporaryDirectory()
        try Tool.run(["-o", scratch.sub("out"), Tool.samples])
        let before = try scratch.files("out").map { try FileManager.default.attributesOfItem(atPath: scratch.sub("out/" + $0)) }
        let second = try Tool.run(["-o", scratch.sub("out"), Tool.samples])
        #expect(second.status == 0)
        #expect(second.stderr.contains("heic2jpg: 0 converted, 0 copied, 27 skipped, 0 failed"), "\(second.stderr)")
        let after = try scratch.files("out").map { try FileManager.default.attributesOfItem(atPath: scratch.sub("out/" + $0)) }
        #expect(before.map { $0[.modificationDate] as? Date } == after.map { $0[.modificationDate] as? Date })
        #expect(before.map { $0[.systemFileNumber] as? Int } == after.map { $0[.systemFileNumber] as? Int })
        let forced = try Tool.run(["--overwrite", "--quiet", "-o", scratch.sub("out"), Tool.samples])
        #expect(forced.status == 0 && forced.stderr.isEmpty)
    }

    @Test("Alpha is flattened onto --background")
    func background() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["--background", "#203040", "-o", scratch.sub("out"), Tool.samples + "/alpha-transparent.heic"])
        #expect(outcome.status == 0)
        let problems = try OutputCheck.problems(source: Tool.samples + "/alpha-transparent.heic",
                                                output: scratch.sub("out/alpha-transparent.jpg"), background: (0x20, 0x30, 0x40))
        #expect(problems.isEmpty, "\(problems)")
        // The right edge is fully transparent: it must come out in the background colour.
        let picture = try #require(Reference.jpeg(scratch.sub("out/alpha-transparent.jpg"))?.picture)
        let offset = (picture.height / 2 * picture.width + picture.width - 2) * 3
        let pixel = picture.pixels[offset..<(offset + 3)].map(Int.init)
        #expect(abs(pixel[0] - 0x20) <= 3 && abs(pixel[1] - 0x30) <= 3 && abs(pixel[2] - 0x40) <= 3, "\(pixel)")
    }

    @Test("stdin to stdout")
    func streams() throws {
        let input = try #require(FileManager.default.contents(atPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic"))
        let outcome = try Tool.run(["-", "-o", "-"], stdin: input)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let scratch = TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: scratch.sub("stdout.jpg"), contents: outcome.stdout))
        let problems = try OutputCheck.problems(source: Tool.samples + "/photo-exif-gps-xmp-icc.heic", output: scratch.sub("stdout.jpg"))
        #expect(problems.isEmpty, "\(problems)")
    }
}

extension SamplesEndToEndTests {
    @Test("An image of a collection that breaks while it is written is left out, named with its reason; the others are written, no temp file is left, and the original is not handed off")
    func brokenOtherImage() throws {
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: Tool.samples + "/collection-3-images.heic")))
        let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
        // Image 3's first NAL unit claims to run past its data: the tile engine finds out
        // while it writes, after the output was opened.
        let extent = try #require(structure.locations[3]?.extents.first)
        bytes.replaceSubrange(extent.offset..<(extent.offset + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/broken.heic", bytes)
        let outcome = try Tool.run(["-v", "--state", scratch.sub("s.db"), "--delete-source", "-o", scratch.sub("out"),
                                    "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("out") == ["broken-2.jpg", "broken.jpg"], "no third output, no temp file")
        #expect(outcome.stderr.contains("image item 3 (for broken-3.jpg) is left out:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("not converted: 1 more image (#3)"), "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: source), "kept: it holds an image no output carries")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["broken.heic"])
        #expect((entry["outputs"] as? [[String: Any]])?.map { $0["item"] as? Int } == [1, 2])
        #expect((entry["warningCodes"] as? [String] ?? []).contains("image-not-converted"))
    }
}

extension SamplesEndToEndTests {
    @Test("Another image's path: a file heic2jpg did not write there fails the source and is left alone (nothing of the source is published); --on-conflict suffix writes NAME-3-1.jpg; the source's own earlier output there is replaced")
    func otherImageNeverOverwrites() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/c.heic", [UInt8](try #require(FileManager.default.contents(atPath: Tool.samples + "/collection-3-images.heic"))))
        let foreign: [UInt8] = Array("not ours".utf8)
        scratch.file("out/c-3.jpg", foreign)
        let refused = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(refused.status == 1 && refused.stderr.contains("c-3.jpg exists and was not written by heic2jpg"), "\(refused.stderr)")
        #expect(FileManager.default.contents(atPath: scratch.sub("out/c-3.jpg")).map([UInt8].init) == foreign)
        #expect(scratch.files("out") == ["c-3.jpg"], "nothing of the source is published")
        let suffixed = try Tool.run(["--on-conflict", "suffix", "-o", scratch.sub("out"), "--report", scratch.sub("s.jsonl"), source])
        #expect(suffixed.status == 0, "\(suffixed.stderr)")
        #expect(scratch.files("out") == ["c-2.jpg", "c-3-1.jpg", "c-3.jpg", "c.jpg"])
        let paths = try #require(try ReportFile(scratch.sub("s.jsonl")).bySource["c.heic"]?["outputs"] as? [[String: Any]]).map { $0["path"] as? String }
        #expect(paths == ["out/c.jpg", "out/c-2.jpg", "out/c-3-1.jpg"].map { scratch.sub($0) })
        // Our own earlier outputs: replaced with --overwrite (the planner's rule for the primary, the mark's for the others).
        let inode = { (name: String) in try FileManager.default.attributesOfItem(atPath: scratch.sub("out/" + name))[.systemFileNumber] as? Int }
        let before = try inode("c-2.jpg")
        let again = try Tool.run(["--overwrite", "--on-conflict", "suffix", "-o", scratch.sub("out"), source])
        let after = try inode("c-2.jpg")
        #expect(again.status == 0 && after != before, "\(again.stderr)")
    }
}
