import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// `compare --html`: one self-contained page, rendered by headless Chromium with no console
/// message and nothing to fetch, whose text holds what `--json` says, whose tag table
/// names every EXIF tag exiftool finds, whose crops are the outputs' own pixels and whose
/// zoom stays in step.
@Suite("End to end: the compare page in a browser")
struct ComparePageEndToEndTests {
    static var photo: String { Tool.samples + "/photo-exif-gps-xmp-icc.heic" }
    static var iPhone: String? { Tool.corpus.map { $0 + "/iphone/iphone13pro-depth-gainmap.heic" } }

    /// The captures of `pattern` in `text`, each match's groups.
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }

    /// The page's section for `file`.
    static func section(_ page: String, _ file: String) throws -> String {
        let sections = page.components(separatedBy: "<section id=").dropFirst()
        return try #require(sections.first { $0.contains("<h2>\(file)</h2>") }, "no section for \(file)")
    }

    @Test("Samples and a corpus photo: rendered silent, nothing fetched, the JSON's figures and errors in the text, the zoom in step")
    func page() throws {
        let scratch = TemporaryDirectory()
        let files = [Self.photo, Tool.samples + "/p3-nclx-only.heic", Tool.samples + "/monochrome.heic",
                     Tool.samples + "/grid-rotated-mirrored.heic", Tool.samples + "/actually-a-jpeg.heic"] + (Self.iPhone.map { [$0] } ?? [])
        let path = scratch.sub("compare.html")
        let outcome = try Tool.run(["compare", "--json", "--html", path] + files)
        #expect(outcome.status == 1, "the JPEG named .heic fails its comparison: \(outcome.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]])
        let source = try String(contentsOfFile: path, encoding: .utf8)
        #expect(HeadlessChromium.fetches(in: source).isEmpty, "nothing to fetch: \(HeadlessChromium.fetches(in: source))")

        let rendered = try HeadlessChromium.render(path, screenshot: HeadlessChromium.screenshot("compare-page.png"), fragment: "zoom=3")
        print("compare page: \(source.utf8.count) bytes for \(files.count) files, rendered in \(String(format: "%.2f", rendered.seconds)) s")
        #expect(rendered.console.isEmpty, "no console message (the script runs under the policy; nothing refused): \(rendered.console)")
        let png = try Data(contentsOf: URL(fileURLWithPath: rendered.screenshot))
        #expect(png.count > 50_000 && png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "a screenshot: \(png.count) bytes")

        let text = HeadlessChromium.text(of: rendered.dom)
        for entry in entries {
            let file = try #require(entry["file"] as? String)
            #expect(text.contains(file))
            if let error = entry["error"] as? String {
                #expect(text.contains("error: " + error), "the error of \(file) in the page")
                continue
            }
            let section = HeadlessChromium.text(of: try Self.section(source, file))
            for output in try #require(entry["outputs"] as? [[String: Any]]) {
                let bytes = try #require(output["bytes"] as? Int)
                #expect(section.contains(bytes.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))), "\(file): \(bytes) bytes")
                if let psnr = output["yPSNR"] as? Double {
                    // Two decimals, however the last one was rounded.
                    let shown = [(psnr * 100).rounded(.down), (psnr * 100).rounded(.up)].map { String(format: "%.2f dB", $0 / 100) }
                    #expect(shown.contains(where: section.contains), "\(file): \(psnr) dB")
                }
                for key in ["exifTagsKept", "exifTagsDropped"] {
                    #expect(section.contains(" \(output[key] as? Int ?? -1) "), "\(file): \(key)")
                }
            }
        }
        // Every crop group zoomed to the address's 3, each of its crops scaled alike.
        let groups = Self.matches(#"<div class="zoom"[^>]*data-zoom="([0-9.]+)""#, in: rendered.dom).map { $0[0] }
        let successes = entries.filter { $0["error"] == nil }.count
        #expect(groups.count == successes && groups.allSatisfy { $0 == "3" }, "zoom groups: \(groups)")
        let crops = Self.matches(#"<div class="crop"[^>]*><img[^>]*style="transform: ([^"]*)""#, in: rendered.dom).map { $0[0] }
        #expect(crops.count == 3 * successes && crops.allSatisfy { $0.hasPrefix("scale(3)") }, "crops: \(crops)")
        #expect(Set(crops).count <= successes, "the crops of one source share one transform: \(Set(crops))")
    }

    @Test("Tags: every EXIF tag exiftool finds has its row; GPS called out as location, kept by keep and dropped by strip")
    func tags() throws {
        let scratch = TemporaryDirectory()
        let files = [Self.photo] + (Self.iPhone.map { [$0] } ?? [])
        let path = scratch.sub("compare.html")
        let outcome = try Tool.run(["compare", "--html", path] + files)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let groups = ["IFD0": "IFD0", "ExifIFD": "ExifIFD", "GPS": "GPS IFD", "InteropIFD": "InteropIFD", "IFD1": "IFD1"]
        for file in files {
            let section = try Self.section(page, file)
            let rows = Self.matches(#"<tr><td>EXIF ([^<]*?)(?:<span class="cat ([a-z-]+)">[^<]*</span>)?</td><td>([^<]*)</td><td[^>]*>([^<]*)(?:<small>[^<]*</small>)?</td><td( class="[a-z]+")?>"#, in: section)
            let names = Set(rows.map { $0[0] })
            let exiftool = try ExifTool.tags(atPath: file, ["-EXIF:all"])
            for key in exiftool.keys where key != "SourceFile" {
                let parts = key.split(separator: ":").map(String.init)
                guard parts.count == 2, let group = groups[parts[0]], !["ThumbnailOffset", "ThumbnailLength", "ThumbnailImage"].contains(parts[1]) else { continue }
                #expect(names.contains("\(group) \(parts[1])"), "\(file): exiftool's \(key) has a row")
            }
            let gps = rows.filter { $0[0].hasPrefix("GPS IFD ") }
            #expect(!gps.isEmpty, "\(file): GPS rows")
            for row in gps {
                #expect(row[1] == "location", "\(row[0]) is called out as a location tag")
                #expect(row[2] == row[3] && row[4] == #" class="dropped""#, "\(row[0]): keep has the source's value, strip dropped it: \(row)")
            }
        }
        #expect(page.contains("strip drops 7 location tags"), "the sample's seven GPS tags are counted")
    }

    @Test("Pixels: the crops are the source's and the keep output's own, and the mean |ΔY| is the outputs' against a reference decode")
    func pixels() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("compare.html")
        #expect(try Tool.run(["compare", "--html", path, Self.photo]).status == 0)
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let place = try #require(Self.matches(#"Crops at 1:1, from \((\d+), (\d+)\) of (\d+)×(\d+)"#, in: page).first).compactMap { Int($0) }
        let crops = Self.matches(#"<div class="crop"[^>]*><img[^>]*src="data:image/jpeg;base64,([^"]+)""#, in: page)
            .compactMap { Data(base64Encoded: $0[0]).flatMap { Reference.jpeg(bytes: [UInt8]($0))?.picture } }
        #expect(crops.count == 3, "source, keep and strip crops")
        // The keep output as convert writes it, decoded by libjpeg; the source by libheif.
        #expect(try Tool.run(["-o", scratch.sub("out"), Self.photo]).status == 0)
        let keep = try #require(Reference.jpeg(scratch.sub("out/photo-exif-gps-xmp-icc.jpg"))?.picture)
        let source = try #require(Reference.heif(Self.photo))
        #expect(place[2] == keep.width && place[3] == keep.height)
        func region(_ picture: RGBPicture, like crop: RGBPicture) -> RGBPicture {
            RGBPicture(width: crop.width, height: crop.height, pixels: (0..<crop.height).flatMap { y in
                picture.pixels[(3 * ((place[1] + y) * picture.width + place[0]))...].prefix(3 * crop.width)
            })
        }
        for (crop, reference, name) in [(crops[0], source, "source"), (crops[1], keep, "keep")] {
            let psnr = crop.psnr(against: region(reference, like: crop))
            #expect(psnr > 40, "the \(name) crop is its pixels at 1:1 (re-encoded at q92 4:4:4): \(psnr) dB")
        }
        #expect(crops[0].psnr(against: region(keep, like: crops[0])) < crops[1].psnr(against: region(keep, like: crops[1])),
                "the source crop is not the output's")
        func luma(_ p: RGBPicture, _ i: Int) -> Double { 0.299 * Double(p.pixels[3 * i]) + 0.587 * Double(p.pixels[3 * i + 1]) + 0.114 * Double(p.pixels[3 * i + 2]) }
        let mean = (0..<(keep.width * keep.height)).reduce(0.0) { $0 + abs(luma(source, $1) - luma(keep, $1)) } / Double(keep.width * keep.height)
        let shown = try #require(Self.matches(#"<th>mean \|ΔY\|</th><td[^>]*></td><td[^>]*>([0-9.]+)</td>"#, in: page).first.flatMap { Double($0[0]) })
        #expect(abs(shown - mean) < 0.011, "the page's mean |ΔY| \(shown) against the reference's \(mean)")
    }

    @Test("--html never replaces a photo or a file that is not a heic2jpg page; it replaces its own earlier page")
    func neverOverwrites() throws {
        let scratch = TemporaryDirectory()
        let photo = scratch.file("a.heic", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.photo))))
        let notes = scratch.file("notes.html", Array("<html>my notes</html>".utf8))
        // `compare --html a.heic b.heic`: a.heic taken for the page; and a page named as an input too.
        for (arguments, reason) in [([photo, Self.photo], "is not a heic2jpg page"), ([photo, photo], "is also an input")] {
            let refused = try Tool.run(["compare", "--html"] + arguments)
            #expect(refused.status == 1 && refused.stderr.contains(reason), "\(refused.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == (try Data(contentsOf: URL(fileURLWithPath: Self.photo))))
        }
        let other = try Tool.run(["compare", "--html", notes, Self.photo])
        #expect(other.status == 1 && other.stderr.contains("is not a heic2jpg page"), "\(other.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "<html>my notes</html>")
        let page = scratch.sub("page.html")
        for _ in 0..<2 { #expect(try Tool.run(["compare", "--html", page, Self.photo]).status == 0, "its own page is replaced") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["a.heic", "notes.html", "page.html"], "no temporary left")
    }

    @Test("A worker's forged picture is refused: the file fails with the reason, and nothing of it reaches the page")
    func forgedPictures() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.sub("compare.html")
        let outcome = try Tool.run(["HEIC2JPG_TEST_HOSTILE_WORKER=forged-pictures", Tool.binary, "compare", "--html", path, Self.photo],
                                   executable: "/usr/bin/env")
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("the decoder process sent the source's preview that is not a 400×300 JPEG"), "\(outcome.stderr)")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.contains("error: the decoder process sent the source"), "the file's section names the reason")
        let forged = "<script>document.title='forged'</script>"
        #expect(!page.contains(forged) && !page.contains(Data(forged.utf8).base64EncodedString()), "the forged bytes are not in the page, as they are or inline")
        // Without --html the worker is not asked for pictures, and the same comparison passes.
        #expect(try Tool.run(["HEIC2JPG_TEST_HOSTILE_WORKER=forged-pictures", Tool.binary, "compare", Self.photo], executable: "/usr/bin/env").status == 0)
    }
}
