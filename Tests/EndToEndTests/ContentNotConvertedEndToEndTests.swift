import Foundation
import H2JTestSupport
import Testing

/// What a file holds beyond its primary image is described by `inspect`, converted
/// (`--images all`: every still image) or named by a `content-not-converted` warning,
/// checked per file of `../shared/corpus-wide` (see its SOURCES.md).
@Suite("End to end: groups, sequences and gain maps are described and never dropped silently",
       .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
struct ContentNotConvertedEndToEndTests {
    /// Per file: the entity groups and tracks `inspect --json` must list, the outputs a
    /// conversion writes (suffixes of the file's stem, `""` for `NAME.jpg`), and what its
    /// warning must name (nil: no warning, everything is carried).
    struct Expectation: Sendable, CustomStringConvertible {
        let file: String
        let groups: [String]
        let tracks: [String]
        var outputs = [""]
        let notConverted: String?
        var description: String { file }
    }

    static let expectations = [
        Expectation(file: "collections/mpegconf-multilayer003-ster-stereo-pair.heic", groups: ["ster 1005: 1002 1004"], tracks: [],
                    outputs: [""], notConverted: nil),
        Expectation(file: "collections/mpegconf-C010-altr-pair.heic", groups: ["altr 1006: 1002 1005"], tracks: [],
                    outputs: ["", "-2"], notConverted: nil),
        // A grid of layered-HEVC ('lhv1') tiles is left out, named; the other images are written.
        Expectation(file: "structure/mpegconf-multilayer002-lhevc-grids.heic", groups: [], tracks: [],
                    outputs: ["", "-2"], notConverted: "1 more image (#20019)"),
        Expectation(file: "collections/mpegconf-C001-item-plus-sequence.heic", groups: [], tracks: ["1 pict 1280×720 8"],
                    notConverted: "an image sequence of 8 frames"),
        Expectation(file: "collections/libavif-colors-animated-8bpc-audio.avifs", groups: [], tracks: ["1 pict 150×150 5", "2 soun 0×0 8"],
                    notConverted: "an image sequence of 5 frames"),
        Expectation(file: "gainmap/crabbyavif-iphone15pro-ios18-tmap-plus-apple-hdrgainmap.heic", groups: ["altr 65: 66 49"], tracks: [],
                    notConverted: nil),
    ]

    @Test("inspect lists the groups and tracks; the conversion writes every image and names what it leaves out",
          arguments: expectations)
    func described(_ expected: Expectation) throws {
        let path = try #require(Tool.corpusWide) + "/" + expected.file
        try #require(FileManager.default.fileExists(atPath: path), "\(expected.file) is missing from corpus-wide")
        let inspect = try Tool.run(["inspect", "--json", path])
        let entry = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first)
        let groups = (entry["groups"] as? [[String: Any]] ?? []).map { group in
            "\(group["type"] ?? "") \(group["id"] ?? ""): " + ((group["entities"] as? [Int]) ?? []).map(String.init).joined(separator: " ")
        }
        #expect(groups == expected.groups)
        let tracks = (entry["tracks"] as? [[String: Any]] ?? []).map { track in
            "\(track["id"] ?? "") \(track["handler"] ?? "") \(track["width"] ?? "")×\(track["height"] ?? "") \(track["frames"] ?? "")"
        }
        #expect(tracks == expected.tracks)

        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-v", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let stem = ((expected.file as NSString).lastPathComponent as NSString).deletingPathExtension
        #expect(scratch.files("out") == expected.outputs.map { stem + $0 + ".jpg" }.sorted())
        let report = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8)
        if let notConverted = expected.notConverted {
            #expect(outcome.stderr.contains("not converted: \(notConverted)\n"), "\(outcome.stderr)")
            #expect(report.contains(#""content-not-converted""#))
        } else {
            #expect(!report.contains(#""content-not-converted""#), "\(report)")
        }
    }

    @Test("A tmap is listed with its inputs, and its hidden gain map as an input of it")
    func gainMapItems() throws {
        let path = try #require(Tool.corpusWide) + "/gainmap/crabbyavif-iphone15pro-ios18-tmap-plus-apple-hdrgainmap.heic"
        let inspect = try Tool.run(["inspect", "--json", path])
        let entry = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first)
        let images = try #require(entry["images"] as? [[String: Any]])
        let tmap = try #require(images.first { $0["type"] as? String == "tmap" })
        #expect(tmap["id"] as? Int == 66 && tmap["inputs"] as? [Int] == [49, 63])
        let gainMap = try #require(images.first { $0["id"] as? Int == 63 })
        #expect(gainMap["inputOf"] as? Int == 66 && gainMap["hidden"] as? Bool == true)
        let text = try Tool.run(["inspect", path]).stdoutText
        #expect(text.contains("tmap 3024×4032, from #49, #63"), "\(text)")
    }

    @Test("No output claims a gain map it does not carry: an hdrgm: property or a Container directory only in an Ultra HDR file, whose second MPF image is the gain map the directory names")
    func noFalseUltraHDRClaims() throws {
        let wide = try #require(Tool.corpusWide)
        let scratch = TemporaryDirectory()
        let inputs = ["gainmap", "hdr-pq", "phones"].map { wide + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
        _ = try Tool.run(["-o", scratch.sub("out"), "--quiet", "--report", scratch.sub("r.jsonl")] + inputs)
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let outputs = scratch.files("out").filter { $0.hasSuffix(".jpg") }
        #expect(outputs.count >= 10, "\(outputs)")
        var ultraHDR = 0
        for output in outputs {
            let path = scratch.sub("out/" + output)
            let bytes = try #require(FileManager.default.contents(atPath: path))
            let claims = ["hdrgm:", "Container:Directory"].filter { bytes.range(of: Data($0.utf8)) != nil }
            let source = report.bySource.first { ($0.value["output"] as? String) == path }?.value
            guard !claims.isEmpty else {
                #expect(source?["hdr"] is NSNull, "\(output) is said to be HDR but claims nothing")
                continue
            }
            ultraHDR += 1
            #expect(claims.count == 2 && source?["hdr"] is String, "\(output) carries \(claims) only")
            let inspect = try Tool.run(["inspect", "--json", path])
            let entry = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first)
            let images = (entry["images"] as? [[String: Any]] ?? []).compactMap { $0["multiPicture"] as? [String: Any] }
            #expect(images.count == 2, "\(output) has no gain map image after its primary")
            let length = try ExifTool.run(["-s3", "-XMP-Container:DirectoryItemLength", path]).stdoutText
                .split(separator: "\n").last.map(String.init)
            #expect(length == images.last.flatMap { $0["bytes"] as? Int }.map(String.init), "\(output): the directory's length")
        }
        #expect(ultraHDR >= 1, "the iPhone 15 Pro file becomes an Ultra HDR JPEG")
    }

    @Test("Every PQ source of hdr-pq/ is an Ultra HDR JPEG: tone-mapped with a computed gain map, the mapping in the report; the one with Adobe's gain map to SDR gets it applied")
    func hdrToneMapped() throws {
        let directory = try #require(Tool.corpusWide) + "/hdr-pq"
        let scratch = TemporaryDirectory()
        _ = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), directory])
        let report = try ReportFile(scratch.sub("r.jsonl"))
        let sources = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".avif") }
        #expect(sources.count == 3)
        for source in sources {
            let entry = report.bySource[source]
            let hdr = entry?["hdr"] as? String ?? ""
            if source == "libavif-colors-hdr-p3-pq.avif" {
                #expect(hdr.hasSuffix("gain map item 4) applied to the PQ base for the SDR rendition"), "\(source): \(hdr)")
            } else {
                #expect(hdr.hasPrefix("Ultra HDR: gain map computed") && hdr.contains("PQ (SMPTE ST 2084)"), "\(source): \(hdr)")
            }
            let warnings = entry?["warnings"] as? [String] ?? []
            #expect(!warnings.contains { $0.contains("HDR rendition") }, "\(source): \(warnings)")
        }
    }

    @Test("Each tmap of gainmap/ is honoured or ignored as ISO 21496-1 and libavif's test files say")
    func toneMapVerdicts() throws {
        let directory = try #require(Tool.corpusWide) + "/gainmap/"
        // nil: honoured; otherwise the start of the reason it is ignored.
        let expected: [String: String?] = [
            "libavif-seine-sdr-gainmap-srgb.avif": nil,
            "libavif-seine-hdr-gainmap-srgb.avif": nil,
            "crabbyavif-iphone15pro-ios18-tmap-plus-apple-hdrgainmap.heic": nil,
            "libavif-unsupported-gainmap-writer-version-extra-bytes.avif": nil,
            "libavif-seine-sdr-gainmap-notmapbrand.avif": "the file lacks the 'tmap' brand",
            "libavif-seine-sdr-gainmap-gammazero.avif": "gamma",
            "libavif-unsupported-gainmap-minimum-version.avif": "gain-map metadata minimum version 99",
            "libavif-unsupported-gainmap-version.avif": "'tmap' version 99",
            "libavif-supported-gainmap-writer-version-extra-bytes.avif": "4 bytes follow",
        ]
        for (file, reason) in expected {
            let inspect = try Tool.run(["inspect", "--json", directory + file])
            let entry = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first, "\(file)")
            let toneMap = try #require(entry["toneMap"] as? [String: Any], "\(file)")
            #expect(toneMap["honoured"] as? Bool == (reason == nil), "\(file): \(toneMap)")
            if let reason { #expect((toneMap["reason"] as? String)?.hasPrefix(reason) == true, "\(file): \(toneMap)") }
        }
    }

    @Test("Apple gain maps: the headroom from the gain map's XMP (iPhone 15 Pro) or the maker note (iPhone 13 Pro), as exiftool's values give it")
    func appleHeadroom() throws {
        var files = [(try #require(Tool.corpusWide) + "/gainmap/crabbyavif-iphone15pro-ios18-tmap-plus-apple-hdrgainmap.heic", 63, 3.227528, "XMP HDRGainMapHeadroom")]
        // iPhone 13 Pro: tag 33 = 22307/25388 (< 1), no tag 48: 1.8 stops.
        if let corpus = Tool.corpus { files.append((corpus + "/iphone/iphone13pro-depth-gainmap.heic", 52, 3.4822022531844965, "maker note tags 33 and 48")) }
        for (path, id, headroom, origin) in files {
            let inspect = try Tool.run(["inspect", "--json", path])
            let entry = try #require((try JSONSerialization.jsonObject(with: inspect.stdout) as? [[String: Any]])?.first)
            let apple = try #require(entry["appleGainMap"] as? [String: Any], "\(path)")
            #expect(apple["id"] as? Int == id && apple["from"] as? String == origin, "\(apple)")
            #expect(abs((apple["headroom"] as? Double ?? 0) - headroom) < 1e-6, "\(apple)")
        }
    }
}
