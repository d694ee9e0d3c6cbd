import Foundation
import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JJPEGCodec
@testable import H2JMetadata

/// `heic2jpg inspect`, run as a user runs it: the built binary, its JSON parsed with
/// JSONSerialization, exit codes checked.
@Suite("End to end: inspect")
struct InspectEndToEndTests {
    typealias Object = [String: Any]

    /// Runs `inspect --json` and parses the one array it prints.
    static func inspect(_ arguments: [String]) throws -> (status: Int32, objects: [Object], stderr: String) {
        let outcome = try Tool.run(["inspect", "--json"] + arguments)
        let objects = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [Object], "stdout: \(outcome.stdoutText)")
        return (outcome.status, objects, outcome.stderr)
    }

    /// The object for the file whose path ends with `name`.
    static func object(_ objects: [Object], _ name: String) throws -> Object {
        try #require(objects.first { ($0["file"] as? String)?.hasSuffix(name) == true }, "no object for \(name)")
    }

    static func images(_ object: Object) -> [Object] { object["images"] as? [Object] ?? [] }
    static func primary(_ object: Object) -> Object { object["primary"] as? Object ?? [:] }

    static func sha256(_ path: String) throws -> String {
        let outcome = try Tool.run([path], executable: "/usr/bin/sha256sum")
        return String(outcome.stdoutText.prefix(64))
    }

    /// A small JPEG with an XMP APP1 packet (built here by hand, like the one heic2jpg
    /// writes) carrying `mark` properties in the h2j namespace, when given.
    static func writeJPEG(_ path: String, markDigest: String? = nil, form: MarkForm = .attributes) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let writer = try JPEGWriter(fd: fd)
        let (width, height) = (32, 24)
        try writer.start(width: width, height: height, components: 3, quality: 85, subsampling: .s420)
        if let markDigest {
            try writer.writeMarker(0xE1, JPEGAPPSignature.xmp + Array(markPacket(digest: markDigest, form: form).utf8))
        }
        let pixels = [UInt8](repeating: 128, count: width * height * 3)
        try pixels.withUnsafeBufferPointer { try writer.writeRows($0.baseAddress!, stride: width * 3, count: height) }
        try writer.finish()
    }

    enum MarkForm { case attributes, elements }

    static func markPacket(digest: String, form: MarkForm) -> String {
        let values = [("sourceName", "photo &amp; co.heic"), ("sourceSHA256", digest), ("mode", "lossy"), ("quality", "77"), ("version", "0.1.0")]
        let body: String
        switch form {
        case .attributes:
            body = "<rdf:Description rdf:about=\"\" xmlns:h2j=\"http://ns.heic2jpg.dev/provenance/1.0/\""
                + values.map { "\n    h2j:\($0.0)=\"\($0.1)\"" }.joined() + "/>"
        case .elements:
            body = "<rdf:Description rdf:about=\"\" xmlns:p=\"http://ns.heic2jpg.dev/provenance/1.0/\">"
                + values.map { "<p:\($0.0)>\($0.1)</p:\($0.0)>" }.joined() + "</rdf:Description>"
        }
        return """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/jpeg"/>
        \(body)
        </rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    @Test("Samples: each described as Samples/README.md says it was built; a non-image is an error object and exit 1")
    func samples() throws {
        let names = ["photo-exif-gps-xmp-icc.heic", "p3-nclx-only.heic", "rotated-irot270-orientation6.heic", "alpha-transparent.heic",
                     "10bit-gradient.heic", "monochrome.heic", "grid-rotated-mirrored.heic", "actually-a-jpeg.heic", "README.md"]
        let (status, objects, stderr) = try Self.inspect(names.map { Tool.samples + "/" + $0 })
        #expect(status == 1)
        #expect(stderr.isEmpty, "--json puts errors in the array")
        #expect(objects.count == names.count)

        let photo = try Self.object(objects, "photo-exif-gps-xmp-icc.heic")
        #expect(photo["format"] as? String == "heif")
        #expect((photo["brands"] as? Object)?["major"] as? String == "heic")
        let colour = Self.primary(photo)["colour"] as? Object
        #expect((colour?["icc"] as? Object)?["description"] as? String == "sRGB built-in")
        #expect((photo["{TIFF}"] as? Object)?["Make"] as? String == "Heic2jpgSamples")
        #expect((photo["{Exif}"] as? Object)?["DateTimeOriginal"] as? String == "2024:05:17 14:23:09")
        let gps = try #require(photo["{GPS}"] as? Object)
        #expect(abs((gps["Latitude"] as? Double ?? 0) - -22.951916) < 1e-5)
        #expect(abs((gps["Longitude"] as? Double ?? 0) - -43.210487) < 1e-5)
        #expect(gps["Altitude"] as? Double == 700)
        let metadata = try #require(photo["metadata"] as? Object)
        #expect((metadata["exif"] as? Int ?? 0) > 0 && (metadata["xmp"] as? Int ?? 0) > 0 && (metadata["icc"] as? Int ?? 0) > 0)
        #expect(photo["provenance"] is NSNull)
        #expect((photo["warnings"] as? [String])?.isEmpty == true)

        let p3 = try Self.object(objects, "p3-nclx-only.heic")
        let nclx = (Self.primary(p3)["colour"] as? Object)?["nclx"] as? Object
        #expect(nclx?["primaries"] as? Int == 12 && nclx?["transfer"] as? Int == 13 && nclx?["matrix"] as? Int == 6)
        #expect(nclx?["fullRange"] as? Bool == true)
        #expect((Self.primary(p3)["colour"] as? Object)?["icc"] is NSNull, "inspect reports the file, not the profile a conversion builds")

        let rotated = try Self.object(objects, "rotated-irot270-orientation6.heic")
        let image = try #require(Self.images(rotated).first)
        #expect(image["width"] as? Int == 512 && image["height"] as? Int == 384)
        #expect(image["displayWidth"] as? Int == 384 && image["displayHeight"] as? Int == 512)
        let orientation = Self.primary(rotated)["orientation"] as? Object
        #expect(orientation?["irot"] as? Int == 270 && orientation?["exif"] as? Int == 6)
        #expect(orientation?["imir"] is NSNull)

        let alpha = Self.images(try Self.object(objects, "alpha-transparent.heic"))
        #expect(alpha.count == 2)
        let auxiliary = try #require(alpha.first { $0["auxiliary"] != nil }?["auxiliary"] as? Object)
        #expect(auxiliary["kind"] as? String == "alpha" && auxiliary["of"] as? Int == 1)

        #expect(Self.primary(try Self.object(objects, "10bit-gradient.heic"))["bitDepth"] as? Int == 10)
        #expect(Self.primary(try Self.object(objects, "monochrome.heic"))["chroma"] as? String == "4:0:0")
        let grid = try Self.object(objects, "grid-rotated-mirrored.heic")
        #expect(Self.images(grid).first?["tiles"] as? Int == 15)
        #expect(Self.primary(grid)["transforms"] as? [String] == ["irot 90", "imir horizontal"])

        let jpeg = try Self.object(objects, "actually-a-jpeg.heic")
        #expect(jpeg["format"] as? String == "jpeg" && jpeg["brands"] == nil)
        #expect(Self.images(jpeg).first?["width"] as? Int == 256 && Self.primary(jpeg)["chroma"] as? String == "4:2:0")

        let readme = try Self.object(objects, "README.md")
        #expect(readme.keys.sorted() == ["error", "file"])
        #expect(readme["error"] as? String == "not a HEIF or JPEG image: looks like unknown data")
    }

    @Test("Text mode: a grouped dump on stdout, errors on stderr; exit 0 when every file is described")
    func text() throws {
        let photo = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        let good = try Tool.run(["inspect", photo, Tool.samples + "/actually-a-jpeg.heic"])
        #expect(good.status == 0 && good.stderr.isEmpty)
        let lines = good.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == photo)
        #expect(lines.contains("    ICC               \"sRGB built-in\", v4.4, 588 bytes"))
        #expect(lines.contains("  {GPS}"))
        #expect(lines.contains("    Make              Heic2jpgSamples"))
        #expect(lines.contains("  provenance          none"))
        #expect(lines.contains(Tool.samples + "/actually-a-jpeg.heic"))

        let bad = try Tool.run(["inspect", photo, Tool.samples + "/README.md", Tool.samples + "/missing.heic"])
        #expect(bad.status == 1)
        #expect(bad.stdoutText.hasPrefix(photo + "\n"))
        #expect(bad.stderr.contains("error: \(Tool.samples)/README.md: not a HEIF or JPEG image: looks like unknown data"))
        #expect(bad.stderr.contains("error: \(Tool.samples)/missing.heic: cannot open: "))
        let directory = try Tool.run(["inspect", Tool.samples])
        #expect(directory.status == 1 && directory.stderr.contains("not a regular file"))
    }

    @Test("A marked JPEG: the mark is read in both forms, and --source checks its digest; exit 1 on a mismatch or no mark")
    func provenance() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        let digest = try Self.sha256(source)
        try Self.writeJPEG(scratch.sub("marked.jpg"), markDigest: digest)
        try Self.writeJPEG(scratch.sub("elements.jpg"), markDigest: digest.uppercased(), form: .elements)
        try Self.writeJPEG(scratch.sub("plain.jpg"))

        let (status, objects, _) = try Self.inspect([scratch.sub("marked.jpg"), scratch.sub("elements.jpg"), scratch.sub("plain.jpg")])
        #expect(status == 0, "without --source a missing mark is not a failure")
        for name in ["marked.jpg", "elements.jpg"] {
            let object = try Self.object(objects, name)
            let mark = try #require(object["provenance"] as? Object, "\(name)")
            #expect(mark["sourceName"] as? String == "photo & co.heic")
            #expect(mark["sourceSHA256"] as? String == digest)
            #expect(mark["mode"] as? String == "strip" && mark["quality"] as? Int == 77 && mark["version"] as? String == "0.1.0")
            #expect(object["sourceMatches"] == nil)
        }
        #expect(try Self.object(objects, "plain.jpg")["provenance"] is NSNull)

        let matching = try Self.inspect(["--source", source, scratch.sub("marked.jpg"), scratch.sub("elements.jpg")])
        #expect(matching.status == 0)
        #expect(matching.objects.allSatisfy { $0["sourceMatches"] as? Bool == true })

        let other = try Self.inspect(["--source", Tool.samples + "/monochrome.heic", scratch.sub("marked.jpg")])
        #expect(other.status == 1)
        #expect(other.objects.first?["sourceMatches"] as? Bool == false)

        let unmarked = try Self.inspect(["--source=\(source)", scratch.sub("plain.jpg")])
        #expect(unmarked.status == 1)
        #expect(unmarked.objects.first?["sourceMatches"] as? Bool == false)

        let text = try Tool.run(["inspect", "--source", source, scratch.sub("marked.jpg")])
        #expect(text.status == 0 && text.stdoutText.contains("  --source            matches\n"))

        let missing = try Tool.run(["inspect", "--source", scratch.sub("nope.heic"), scratch.sub("marked.jpg")])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("nope.heic") && missing.stderr.contains("cannot open"))

        #expect(try Tool.run(["inspect", "--json"]).status == 64)
    }

    @Test("heic2jpg's own outputs: the mark names the source (not in strip mode), mode and quality in both modes; --no-mark leaves none")
    func ownOutputs() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        #expect(try Tool.run(["--quiet", "-o", scratch.sub("keep"), source]).status == 0)
        #expect(try Tool.run(["--quiet", "-q", "70", "--metadata", "strip", "-o", scratch.sub("strip"), source]).status == 0)
        #expect(try Tool.run(["--quiet", "--no-mark", "-o", scratch.sub("none"), source]).status == 0)
        let outputs = ["keep", "strip"].map { scratch.sub($0 + "/photo-exif-gps-xmp-icc.jpg") }
        let (status, objects, _) = try Self.inspect(["--source", source] + outputs)
        #expect(status == 0)
        let digest = try Self.sha256(source)
        for (object, (mode, quality)) in zip(objects, [("keep", 90), ("strip", 70)]) {
            let mark = try #require(object["provenance"] as? Object, "\(object["file"] ?? "")")
            #expect(mode == "strip" ? mark["sourceName"] is NSNull : mark["sourceName"] as? String == "photo-exif-gps-xmp-icc.heic")
            #expect(mark["sourceSHA256"] as? String == digest)
            #expect(mark["mode"] as? String == mode && mark["quality"] as? Int == quality)
            #expect(object["sourceMatches"] as? Bool == true)
        }
        #expect(try Self.object(objects, "strip/photo-exif-gps-xmp-icc.jpg")["{TIFF}"] == nil, "strip mode keeps no EXIF")
        let unmarked = try Self.inspect(["--source", source, scratch.sub("none/photo-exif-gps-xmp-icc.jpg")])
        #expect(unmarked.status == 1 && unmarked.objects.first?["provenance"] is NSNull)
    }

    @Test("Outputs of other tools (heif-convert, vips) carry no mark")
    func otherTools() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        var outputs: [String] = []
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-convert") {
            _ = try Tool.run(["-q", "90", source, scratch.sub("heif-convert.jpg")], executable: "/usr/bin/heif-convert")
            outputs.append(scratch.sub("heif-convert.jpg"))
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/vips") {
            _ = try Tool.run(["copy", source, scratch.sub("vips.jpg")], executable: "/usr/bin/vips")
            outputs.append(scratch.sub("vips.jpg"))
        }
        try #require(!outputs.isEmpty, "neither heif-convert nor vips is installed")
        let (status, objects, _) = try Self.inspect(outputs)
        #expect(status == 0)
        for object in objects {
            #expect(object["format"] as? String == "jpeg", "\(object)")
            #expect(Self.images(object).first?["width"] as? Int == 512)
            #expect(object["provenance"] is NSNull, "\(object["file"] ?? "")")
        }
        let withSource = try Self.inspect(["--source", source] + outputs)
        #expect(withSource.status == 1, "no mark, so no proof of the source")
    }
}

/// The real files of `../shared/corpus`: what the brief names for each.
@Suite("End to end: inspect on ../shared/corpus", .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
struct InspectCorpusEndToEndTests {
    typealias Object = [String: Any]

    @Test("iPhone, Sony, libheif multi-image files: aux kinds, chroma, depth, thumbnails, transforms")
    func phones() throws {
        let corpus = try #require(Tool.corpus)
        let files = ["iphone/iphone13pro-depth-gainmap.heic", "iphone/iphone8plus-rot90-thumb.heic", "camera/sony-a7s3-10bit-422.hif",
                     "libheif/example-2images.heic"]
        let (status, objects, _) = try InspectEndToEndTests.inspect(files.map { corpus + "/" + $0 })
        #expect(status == 0)
        let primary = InspectEndToEndTests.primary, images = InspectEndToEndTests.images

        let iphone13 = try InspectEndToEndTests.object(objects, "iphone13pro-depth-gainmap.heic")
        let kinds = images(iphone13).compactMap { ($0["auxiliary"] as? Object)?["kind"] as? String }.sorted()
        #expect(kinds == ["depth", "hdr-gain-map"])
        #expect(images(iphone13).first { $0["primary"] as? Bool == true }?["tiles"] as? Int == 48)
        #expect(((primary(iphone13)["colour"] as? Object)?["icc"] as? Object)?["description"] as? String == "Display P3")
        #expect((iphone13["{TIFF}"] as? Object)?["Model"] as? String == "iPhone 13 Pro")
        #expect(abs(((iphone13["{GPS}"] as? Object)?["Latitude"] as? Double ?? 0) - 44.850478) < 1e-5)

        let iphone8 = try InspectEndToEndTests.object(objects, "iphone8plus-rot90-thumb.heic")
        let main = try #require(images(iphone8).first { $0["primary"] as? Bool == true })
        #expect(main["displayWidth"] as? Int == 3024 && main["displayHeight"] as? Int == 4032)
        #expect(images(iphone8).contains { $0["thumbnailOf"] as? Int == main["id"] as? Int })
        #expect((primary(iphone8)["orientation"] as? Object)?["exif"] as? Int == 6)

        let sony = try InspectEndToEndTests.object(objects, "sony-a7s3-10bit-422.hif")
        #expect(primary(sony)["chroma"] as? String == "4:2:2" && primary(sony)["bitDepth"] as? Int == 10)
        #expect(((primary(sony)["colour"] as? Object)?["nclx"] as? Object)?["primaries"] as? Int == 1)
        #expect(images(sony).filter { $0["thumbnailOf"] != nil }.count >= 2)

        let two = images(try InspectEndToEndTests.object(objects, "example-2images.heic"))
        let masters = two.filter { $0["thumbnailOf"] == nil }
        #expect(masters.count == 2 && masters.filter { $0["primary"] as? Bool == true }.count == 1)
        #expect(Set(two.compactMap { $0["thumbnailOf"] as? Int }) == Set(masters.compactMap { $0["id"] as? Int }))
    }

    @Test("Converted corpus files (P3 grid, large XMP, non-UTF-8 XMP) carry a mark that names their source")
    func convertedCorpus() throws {
        // The keep-mode run over the whole corpus, shared with CorpusEndToEndTests.
        let run = try CorpusConversion.keep
        for file in ["iphone/iphone13pro-depth-gainmap.heic", "camera/sony-a7s3-10bit-422.hif", "synthetic/xmp-latin1.heic"] {
            let source = run.corpus + "/" + file
            #expect(run.entries[file]?["status"] as? String == "converted", "\(file): \(run.entries[file]?["reason"] ?? "no result")")
            let output = run.output(for: file)
            let (status, objects, _) = try InspectEndToEndTests.inspect(["--source", source, output])
            #expect(status == 0, "\(file)")
            #expect(objects.first?["sourceMatches"] as? Bool == true, "\(file)")
            #expect((objects.first?["provenance"] as? Object)?["sourceName"] as? String == (file as NSString).lastPathComponent)
        }
    }

    @Test("Every corpus file: described, or an error object for the bad ones; the JSON always parses")
    func everyFile() throws {
        let corpus = try #require(Tool.corpus)
        let good = CorpusEndToEndTests.goodFiles(corpus).map { corpus + "/" + $0 }
        let (status, objects, _) = try InspectEndToEndTests.inspect(good)
        #expect(status == 0)
        for object in objects {
            #expect(object["error"] == nil && object["primary"] is Object, "\(object["file"] ?? ""): \(object["error"] ?? "")")
        }
        let bad = CorpusEndToEndTests.badFiles(corpus).map { corpus + "/" + $0 }
        let outcome = try InspectEndToEndTests.inspect(bad)
        #expect(outcome.status == 1 && outcome.objects.count == bad.count)
        #expect(outcome.objects.contains { $0["error"] is String })
    }
}
