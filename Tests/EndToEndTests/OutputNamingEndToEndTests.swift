import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// `--name`, `-o FILE.jpg` and the peers' `IN OUT.jpg`, with the built binary: the files
/// written, their pixels against libheif's, and the never-overwrite rules at a named path.
@Suite("End to end: output names (--name, -o FILE.jpg, IN OUT.jpg)")
struct OutputNamingEndToEndTests {
    static let collection = Tool.samples + "/collection-3-images.heic"
    static let photo = Tool.samples + "/monochrome.heic"

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Each output the report lists for `source`, decoded, against libheif's decode of its
    /// image item: every one a picture of its own image.
    static func expectImages(_ report: ReportFile, _ source: String, paths: [String], sourcePath: String) throws {
        let entry = try #require(report.bySource[source], "\(report.bySource.keys)")
        let outputs = try #require(entry["outputs"] as? [[String: Any]])
        #expect(outputs.compactMap { $0["path"] as? String } == paths)
        let references = Reference.heifImages(sourcePath)
        for output in outputs {
            let path = try #require(output["path"] as? String)
            let item = try #require((output["item"] as? Int).map(UInt32.init))
            let decoded = try #require(Reference.jpeg(path), "\(path) decodes")
            let reference = try #require(references[item])
            #expect(decoded.picture.psnr(against: reference) > 30, "\(path) shows item \(item)")
        }
    }

    @Test("--name on a collection: {name} and {ext} keep the -2/-3 rule; {n} names every image by its number")
    func templates() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/IMG_7.HEIC", try Self.bytes(Self.collection))
        for (index, (template, names)) in [("{name}", ["IMG_7.HEIC", "IMG_7.HEIC-2", "IMG_7.HEIC-3"]),
                                           ("{stem}.{ext}", ["IMG_7.HEIC", "IMG_7.HEIC-2", "IMG_7.HEIC-3"]),
                                           ("{stem}_{n}", ["IMG_7_1", "IMG_7_2", "IMG_7_3"])].enumerated() {
            let out = scratch.sub("out\(index)")
            let outcome = try Tool.run(["--name", template, "-o", out, "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
            #expect(outcome.status == 0, "\(template): \(outcome.stderr)")
            let paths = names.map { out + "/\($0).jpg" }
            #expect(scratch.files("out\(index)") == names.map { $0 + ".jpg" }.sorted(), "\(template)")
            try Self.expectImages(try ReportFile(scratch.sub("r.jsonl")), "IMG_7.HEIC", paths: paths, sourcePath: source)
        }
        // The default names are today's: {stem}, then -2, -3.
        let outcome = try Tool.run(["-o", scratch.sub("default"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("default") == ["IMG_7-2.jpg", "IMG_7-3.jpg", "IMG_7.jpg"])
    }

    @Test("A template that names no source, over a directory, is a usage error; two sources named alike fail the second, naming the first")
    func collisions() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", try Self.bytes(Self.photo))
        scratch.file("in/a.HEIC", try Self.bytes(Self.photo))
        let same = try Tool.run(["--name", "photo", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(same.status == 64 && same.stderr.contains("'--name photo' gives every source the same name; put {stem} or {name} in it"), "\(same.stderr)")
        #expect(!scratch.exists("out"))
        let stems = try Tool.run(["--name", "{stem}", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(stems.status == 1)
        #expect(stems.stderr.contains("error: \(scratch.sub("in/a.heic")): output \(scratch.sub("out/a.jpg")) is already the output of \(scratch.sub("in/a.HEIC")) in this run"), "\(stems.stderr)")
        let names = try Tool.run(["--name", "{name}", "-o", scratch.sub("named"), scratch.sub("in")])
        #expect(names.status == 0, "\(names.stderr)")
        #expect(scratch.files("named") == ["a.HEIC.jpg", "a.heic.jpg"])
    }

    @Test("-o FILE.jpg writes exactly that file, its other images beside it; a rerun skips it, --overwrite replaces it")
    func outputFile() throws {
        let scratch = TemporaryDirectory()
        let target = scratch.sub("picked/Holiday.JPEG")
        let outcome = try Tool.run(["-o", target, "--report", scratch.sub("r.jsonl"), Self.collection])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.files("picked") == ["Holiday-2.JPEG", "Holiday-3.JPEG", "Holiday.JPEG"])
        try Self.expectImages(try ReportFile(scratch.sub("r.jsonl")), "collection-3-images.heic",
                              paths: ["Holiday.JPEG", "Holiday-2.JPEG", "Holiday-3.JPEG"].map { scratch.sub("picked/" + $0) },
                              sourcePath: Self.collection)
        let first = try Self.bytes(target)
        let rerun = try Tool.run(["-o", target, Self.collection])
        #expect(rerun.status == 0 && rerun.stderr.contains("0 converted, 0 copied, 1 skipped, 0 failed"), "\(rerun.stderr)")
        let other = try Tool.run(["-q", "70", "--overwrite", "-o", target, Self.collection])
        #expect(other.status == 0 && other.stderr.contains("1 converted"), "\(other.stderr)")
        #expect(try Self.bytes(target) != first, "replaced at quality 70")
        #expect(scratch.files("picked").count == 3)
    }

    @Test("-o out.jpg with a directory input or two inputs is a usage error (it used to make a directory out.jpg/); an existing directory x.jpg stays a root")
    func outputFileErrors() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", try Self.bytes(Self.photo))
        let directory = try Tool.run(["-o", scratch.sub("out.jpg"), scratch.sub("in")])
        #expect(directory.status == 64 && directory.stderr.contains("takes one input file; '\(scratch.sub("in"))' is a directory"), "\(directory.stderr)")
        let two = try Tool.run(["-o", scratch.sub("out.jpg"), Self.photo, Self.collection])
        #expect(two.status == 64 && two.stderr.contains("takes exactly one input, not 2"), "\(two.stderr)")
        #expect(!scratch.exists("out.jpg"))
        try FileManager.default.createDirectory(atPath: scratch.sub("album.jpg"), withIntermediateDirectories: true)
        let root = try Tool.run(["-o", scratch.sub("album.jpg"), scratch.sub("in")])
        #expect(root.status == 0, "\(root.stderr)")
        #expect(scratch.files("album.jpg") == ["a.jpg"])
    }

    @Test("IN OUT.jpg writes OUT; an existing OUT is never an input: ours is skipped or --overwrite replaced, a foreign one left alone")
    func inOut() throws {
        let scratch = TemporaryDirectory()
        let target = scratch.sub("out.jpg")
        let outcome = try Tool.run([Self.photo, target])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let written = try #require(Reference.jpeg(target))
        #expect(written.picture.psnr(against: try #require(Reference.heif(Self.photo))) > 30)
        // A rerun finds its own output there: skipped, as any rerun; --overwrite replaces it.
        let first = try Self.bytes(target)
        let again = try Tool.run([Self.photo, target])
        #expect(again.status == 0 && again.stderr.contains("1 skipped"), "\(again.stderr)")
        let replaced = try Tool.run(["--overwrite", "-q", "70", Self.photo, target])
        let rewritten = try Self.bytes(target)
        #expect(replaced.status == 0 && rewritten != first, "\(replaced.stderr)")
        // A file of the user's at the named path: never an input, never replaced.
        let copy = scratch.file("copy.jpg", first)  // its mark names monochrome.heic…
        let camera = scratch.file("camera.jpg", [0xFF, 0xD8, 0xFF, 0xD9])
        let operand = try Tool.run([Self.photo, camera])
        #expect(operand.status == 1 && operand.stderr.contains("\(camera) exists and was not written by heic2jpg"), "\(operand.stderr)")
        #expect(!operand.stderr.contains("not a HEIF"), "the existing file is not taken as an input")
        let refused = try Tool.run(["-o", camera, Self.photo])
        #expect(refused.status == 1 && refused.stderr.contains("\(camera) exists and was not written by heic2jpg"), "\(refused.stderr)")
        #expect(try Self.bytes(camera) == [0xFF, 0xD8, 0xFF, 0xD9])
        let overwrite = try Tool.run(["--overwrite", "-o", camera, Self.photo])
        #expect(overwrite.status == 1, "--overwrite never replaces a foreign file")
        #expect(try Self.bytes(camera) == [0xFF, 0xD8, 0xFF, 0xD9])
        // …so for this source it is its own output: skipped.
        let own = try Tool.run(["-o", copy, Self.photo])
        #expect(own.status == 0 && own.stderr.contains("1 skipped"), "\(own.stderr)")
        let stdin = try Tool.run(["-", scratch.sub("from-stdin.jpg")], stdin: Data(try Self.bytes(Self.photo)))
        #expect(stdin.status == 0 && Reference.jpeg(scratch.sub("from-stdin.jpg")) != nil, "\(stdin.stderr)")
    }

    @Test("Strip mode: the mark names no file (digest, mode, quality, version), and a rerun still knows its outputs")
    func stripMark() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/Private Name.heic", try Self.bytes(Self.photo))
        let out = scratch.sub("out/Private Name.jpg")
        let outcome = try Tool.run(["--metadata", "strip", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let bytes = try Self.bytes(out)
        #expect(!Data(bytes).contains(Data("Private Name".utf8)), "the source's name is nowhere in the output")
        let inspect = try Tool.run(["inspect", "--json", "--source", source, out])
        #expect(inspect.status == 0, "the digest still ties it to its source: \(inspect.stderr)")
        let object = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first)
        let mark = try #require(object["provenance"] as? [String: Any])
        #expect(mark["sourceName"] is NSNull && mark["mode"] as? String == "strip" && mark["quality"] as? Int == 90)
        #expect((mark["sourceSHA256"] as? String)?.count == 64)
        let rerun = try Tool.run(["--metadata", "strip", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(rerun.status == 0 && rerun.stderr.contains("0 converted, 0 copied, 1 skipped, 0 failed"), "\(rerun.stderr)")
        // Another photo of the same name: its digest differs, so the output is not its own.
        scratch.file("in2/Private Name.heic", try Self.bytes(Tool.samples + "/monochrome-10bit.heic"))
        let other = try Tool.run(["--metadata", "strip", "--overwrite", "-o", scratch.sub("out"), scratch.sub("in2")])
        #expect(other.status == 1 && other.stderr.contains("exists and was not written by heic2jpg"), "\(other.stderr)")
        #expect(try Self.bytes(out) == bytes)
    }

    @Test("A skip because the output has other settings says so without -v, naming --overwrite")
    func otherSettings() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", try Self.bytes(Self.photo))
        #expect(try Tool.run(["-q", "80", "-o", scratch.sub("out"), scratch.sub("in")]).status == 0)
        let rerun = try Tool.run(["-o", scratch.sub("out"), scratch.sub("in")])
        #expect(rerun.status == 0)
        #expect(rerun.stderr.contains("warning: 1 file: output-settings-differ, \(scratch.sub("in/a.heic")): \(scratch.sub("out/a.jpg")) exists, written with quality 80 (this run: 90); --overwrite replaces it"), "\(rerun.stderr)")
        let same = try Tool.run(["-q", "80", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(!same.stderr.contains("output-settings-differ"), "same settings: a plain skip")
    }

    @Test("--dry-run -v lists every output of a collection, and the report has them")
    func dryRunListsAll() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/c.heic", try Self.bytes(Self.collection))
        let out = scratch.sub("out")
        let outcome = try Tool.run(["--dry-run", "-v", "--name", "{stem}_{n}", "-o", out, "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("planned: \(scratch.sub("in/c.heic")) -> \(out)/c_1.jpg + \(out)/c_2.jpg, \(out)/c_3.jpg"), "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["c.heic"])
        #expect((entry["outputs"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["c_1", "c_2", "c_3"].map { "\(out)/\($0).jpg" })
        #expect(!scratch.exists("out"))
    }

    @Test("--state: a rerun with another --name converts again, and removes the outputs named the old way")
    func stateRename() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/c.heic", try Self.bytes(Self.collection))
        let arguments = ["--state", scratch.sub("state.db"), "-o", scratch.sub("out"), scratch.sub("in")]
        #expect(try Tool.run(arguments).status == 0)
        #expect(scratch.files("out") == ["c-2.jpg", "c-3.jpg", "c.jpg"])
        let renamed = try Tool.run(arguments + ["--name", "{name}"])
        #expect(renamed.status == 0 && renamed.stderr.contains("1 updated"), "\(renamed.stderr)")
        #expect(scratch.files("out") == ["c.heic-2.jpg", "c.heic-3.jpg", "c.heic.jpg"])
        let again = try Tool.run(arguments + ["--name", "{name}"])
        #expect(again.stderr.contains("0 converted, 0 copied, 1 skipped"), "up to date: \(again.stderr)")
    }
}
