import Foundation
import H2JTestSupport
import Testing

/// `heic2jpg compare`: both modes converted in memory and reported side by side.
@Suite("End to end: compare")
struct CompareEndToEndTests {
    static var photo: String { Tool.samples + "/photo-exif-gps-xmp-icc.heic" }

    /// `compare --json` on `files`: the exit status and the parsed array.
    static func json(_ files: [String], _ extra: [String] = []) throws -> (Tool.Outcome, [[String: Any]]) {
        let outcome = try Tool.run(["compare", "--json"] + extra + files)
        let array = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]], "\(outcome.stdoutText)")
        return (outcome, array)
    }

    static func outputs(_ entry: [String: Any]) throws -> [[String: Any]] {
        try #require(entry["outputs"] as? [[String: Any]], "\(entry)")
    }

    /// The one output of `entry` in mode `name` (a comparison at one quality and size).
    static func mode(_ entry: [String: Any], _ name: String) throws -> [String: Any] {
        let outputs = try Self.outputs(entry).filter { $0["mode"] as? String == name }
        #expect(outputs.count == 1, "\(name): \(outputs)")
        return try #require(outputs.first, "no \(name) in \(entry)")
    }

    /// The text table's rows by name (trimmed), each as its cells: source, keep, strip.
    static func rows(_ text: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("  ") {
            let cells = line.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard let name = cells.first else { continue }
            rows[name] = Array(cells.dropFirst())
        }
        return rows
    }

    @Test("JSON on the sample photo: keep has EXIF with GPS, XMP and ICC; strip has no EXIF, GPS or maker note")
    func sampleJSON() throws {
        let (outcome, entries) = try Self.json([Self.photo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.isEmpty)
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["file"] as? String == Self.photo)
        #expect(entry["width"] as? Int == 512 && entry["height"] as? Int == 384)
        let source = try #require(entry["source"] as? [String: Any])
        let sourceTags = try #require(source["exifTags"] as? Int)
        #expect(sourceTags >= 20, "the sample's EXIF has Make, Model, dates, exposure and 7 GPS tags")
        #expect(source["gps"] as? Bool == true && source["xmp"] as? Bool == true && source["icc"] as? Bool == true)

        let keep = try Self.mode(entry, "keep")
        #expect(keep["exif"] as? Bool == true)
        #expect(keep["gps"] as? Bool == true && (keep["gpsTags"] as? Int ?? 0) >= 4)
        #expect(keep["xmp"] as? Bool == true && (keep["xmpBytes"] as? Int ?? 0) > 1000)
        #expect(keep["icc"] as? Bool == true && keep["iccBytes"] as? Int == source["iccBytes"] as? Int)
        #expect(keep["exifTagsKept"] as? Int == sourceTags && keep["exifTagsDropped"] as? Int == 0)

        let lossy = try Self.mode(entry, "strip")
        #expect(lossy["exif"] as? Bool == false && lossy["exifTags"] as? Int == 0)
        #expect(lossy["gps"] as? Bool == false && lossy["gpsTags"] is NSNull)
        #expect(lossy["makerNote"] as? Bool == false)
        #expect(lossy["exifTagsKept"] as? Int == 0 && lossy["exifTagsDropped"] as? Int == sourceTags)
        #expect(lossy["icc"] as? Bool == true, "strip mode keeps the ICC profile: colours depend on it")

        for (name, mode) in [("keep", keep), ("strip", lossy)] {
            #expect((mode["bytes"] as? Int ?? 0) > 1000, "\(name)")
            #expect(mode["engine"] as? String == "tiles", "\(name)")
            #expect((mode["ms"] as? Double ?? 0) > 0, "\(name): a conversion ran, so it took time: \(mode["ms"] ?? "missing")")
            let psnr = try #require(mode["yPSNR"] as? Double, "\(name): \(mode["yPSNR"] ?? "missing")")
            #expect(psnr > 30 && psnr < 99, "\(name): \(psnr) dB")
        }
    }

    @Test("The in-memory outputs are the converter's: byte counts equal what convert writes to stdout")
    func sameAsConvert() throws {
        let (_, entries) = try Self.json([Self.photo], ["-q", "75"])
        let entry = try #require(entries.first)
        for (name, metadata) in [("keep", "keep"), ("strip", "strip")] {
            let converted = try Tool.run(["--quiet", "-q", "75", "--metadata", metadata, "-o", "-", Self.photo])
            #expect(converted.status == 0)
            #expect(try Self.mode(entry, name)["bytes"] as? Int == converted.stdout.count, "\(name)")
        }
    }

    @Test("Text: one table, rows of properties, columns source | keep | strip")
    func sampleText() throws {
        let outcome = try Tool.run(["compare", Self.photo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let text = outcome.stdoutText
        #expect(text.hasPrefix(Self.photo + " (512×384)\n"))
        let rows = Self.rows(text)
        #expect(rows["source"] == ["keep", "strip"], "header row: \(rows)")
        for name in ["bytes", "ms", "engine", "EXIF tags", "kept", "dropped", "GPS", "maker note", "XMP", "ICC", "Y-PSNR", "warnings"] {
            #expect(rows[name] != nil, "row \(name) missing")
        }
        // Each conversion's time, fractional: a small file converts in less than a millisecond.
        #expect(rows["ms"]?.count == 2 && rows["ms"]?.allSatisfy { (Double($0) ?? 0) > 0 } == true, "\(rows["ms"] ?? [])")
        let exif = try #require(rows["EXIF tags"])
        // Keep mode keeps every source tag and adds the ones a JPEG's EXIF requires plus ImageUniqueID.
        #expect(exif.count == 3 && exif[2] == "none", "\(exif)")
        #expect(exif.count == 3 && (Int(exif[1]) ?? 0) > (Int(exif[0]) ?? 0), "\(exif)")
        #expect(rows["kept"]?.first == exif.first, "\(rows["kept"] ?? [])")
        #expect(rows["GPS"]?.last == "no" && rows["GPS"]?[1] != "no")
        #expect(rows["XMP"]?[1].hasSuffix(" bytes") == true)
        #expect(rows["ICC"]?.allSatisfy { $0.hasSuffix(" bytes") } == true)
        let psnr = try #require(rows["Y-PSNR"])
        #expect(psnr.count == 2 && psnr.allSatisfy { $0.hasSuffix(" dB") && (Double($0.dropLast(3)) ?? 0) > 30 }, "\(psnr)")
    }

    @Test("Several qualities and sizes: one output per quality, box and mode, each with its options and size")
    func variants() throws {
        let (outcome, entries) = try Self.json([Self.photo], ["-q", "60,95", "--max-size", "256,120x100", "--sampling", "444"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(entries.first)
        #expect((entry["options"] as? [String: Any])?["sampling"] as? String == "444", "\(entry["options"] ?? "")")
        let outputs = try Self.outputs(entry)
        let expected: [(Int, String, Int, Int)] = [(60, "256", 256, 192), (60, "120x100", 120, 90), (95, "256", 256, 192), (95, "120x100", 120, 90)]
        #expect(outputs.count == 2 * expected.count)
        for (index, (quality, box, width, height)) in expected.enumerated() {
            for (offset, mode) in ["keep", "strip"].enumerated() {
                let output = outputs[min(2 * index + offset, outputs.count - 1)]
                #expect(output["mode"] as? String == mode && output["quality"] as? Int == quality && output["maxSize"] as? String == box,
                        "\(output)")
                #expect(output["width"] as? Int == width && output["height"] as? Int == height, "\(output)")
                let psnr = output["yPSNR"] as? Double ?? 0
                #expect(psnr > 25 && psnr < 99, "q\(quality) \(box) \(mode): \(psnr) dB, against the source resized the same way")
            }
        }
        // A lower quality gives a smaller file at the same size and mode.
        if outputs.count == 8 {
            #expect((outputs[0]["bytes"] as? Int ?? 0) < (outputs[4]["bytes"] as? Int ?? 0))
        }

        let text = try Tool.run(["compare", "-q", "60,95", "--max-size", "256", Self.photo])
        #expect(text.status == 0, "\(text.stderr)")
        let rows = Self.rows(text.stdoutText)
        #expect(rows["source"]?.count == 4, "\(rows)")
        #expect(rows["quality"] == ["60", "60", "95", "95"], "\(rows["quality"] ?? [])")
        #expect(rows["max size"] == ["256", "256", "256", "256"], "\(rows["max size"] ?? [])")
        #expect(rows["size"] == ["512×384", "256×192", "256×192", "256×192", "256×192"], "\(rows["size"] ?? [])")
    }

    @Test("compare's option values are checked as convert's are")
    func variantUsageErrors() throws {
        for arguments in [["-q", "90,"], ["-q", "0,90"], ["--max-size", "256,0"], ["--max-size", "x"], ["--sampling", "411"], ["--thumbnail"]] {
            let outcome = try Tool.run(["compare"] + arguments + [Self.photo])
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        }
    }

    @Test("A bad file gives exit 1 and an error entry; the files around it are still compared")
    func badFileAmongGood() throws {
        let files = [Tool.samples + "/monochrome.heic", "/nonexistent/x.heic", Tool.samples + "/actually-a-jpeg.heic",
                     Tool.samples + "/alpha-transparent.heic"]
        let (outcome, entries) = try Self.json(files)
        #expect(outcome.status == 1)
        #expect(entries.map { $0["file"] as? String } == files)
        #expect((entries[1]["error"] as? String)?.contains("No such file") == true, "\(entries[1])")
        #expect(entries[2]["error"] as? String == "not a HEIF image: looks like JPEG")
        #expect(outcome.stderr.contains("error: /nonexistent/x.heic: "))
        for index in [0, 3] {
            #expect(entries[index]["error"] == nil)
            for name in ["keep", "strip"] {
                let psnr = try Self.mode(entries[index], name)["yPSNR"] as? Double ?? 0
                #expect(psnr > 30, "\(files[index]) \(name): \(psnr) dB")
            }
        }
        #expect(try Self.mode(entries[3], "strip")["engine"] as? String == "libheif", "alpha goes to libheif and is flattened")

        let text = try Tool.run(["compare"] + files)
        #expect(text.status == 1)
        #expect(text.stdoutText.contains(files[0] + " (256×192)") && text.stdoutText.contains(files[3] + " (256×256)"))
        #expect(text.stderr.split(separator: "\n").count == 2, "\(text.stderr)")
    }

    /// The overlay sample with its overlay made the primary (`pitm` 1 → 4): a file whose
    /// primary crashes libheif 1.15, which heic2jpg no longer asks to compose it, but
    /// `compare` does, decoding the source for its Y-PSNR.
    static func crashingPrimary() throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ImageCrashEndToEndTests.sample)))
        let pitm = try #require(bytes.indices.dropLast(10).first { bytes[$0..<($0 + 4)].elementsEqual("pitm".utf8) })
        // pitm (version 0): 4 bytes of version and flags, then the 16-bit item ID.
        try #require(bytes[pitm + 8] == 0 && bytes[pitm + 9] == 1)
        bytes[pitm + 9] = 4
        return bytes
    }

    @Test("A file that crashes its decoder fails its own comparison (the worker's reason), in text and JSON; compare goes on with the next file")
    func crashingFile() throws {
        let scratch = TemporaryDirectory()
        let crashing = scratch.file("crash.heic", try Self.crashingPrimary())
        let mono = Tool.samples + "/monochrome.heic"
        let (outcome, entries) = try Self.json([crashing, mono])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(entries.count == 2)
        #expect(entries.first?["file"] as? String == crashing)
        let error = try #require(entries.first?["error"] as? String, "\(entries)")
        #expect(error.hasPrefix("decoding for Y-PSNR: decoder crashed: SIG") && error.contains("in libheif"), "\(error)")
        #expect(outcome.stderr.contains("error: \(crashing): decoding for Y-PSNR: decoder crashed: SIG"), "\(outcome.stderr)")
        #expect(entries.last?["file"] as? String == mono && entries.last?["error"] == nil, "\(entries)")
        #expect((try Self.mode(try #require(entries.last), "strip")["yPSNR"] as? Double ?? 0) > 30)

        let text = try Tool.run(["compare", crashing, mono])
        #expect(text.status == 1)
        #expect(text.stderr.contains("error: \(crashing): decoding for Y-PSNR: decoder crashed: SIG"), "\(text.stderr)")
        #expect(text.stdoutText.contains("\(mono) (256×192)"), "\(text.stdoutText)")
    }

    @Test("A file whose decoder hangs past --timeout fails its own comparison as timed out; the next file is compared")
    func hangingFile() throws {
        let scratch = TemporaryDirectory()
        let mono = Tool.samples + "/monochrome.heic"
        let run = try RunningTool(["compare", "--json", "--timeout", "1", Self.photo, mono], output: scratch.sub("compare"))
        // The first file's worker is stopped as soon as it exists: it hangs.
        try IsolationEndToEndTests.catchWorker(run) { _ in }
        #expect(run.wait() == 1)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.sub("compare.out"))))
                                   as? [[String: Any]])
        #expect(entries.count == 2)
        let error = try #require(entries.first?["error"] as? String, "\(entries)")
        #expect(error.hasPrefix("timed out after 1 s"), "\(error)")
        #expect(entries.last?["file"] as? String == mono && entries.last?["error"] == nil, "\(entries)")
        let stderr = try String(contentsOfFile: scratch.sub("compare.err"), encoding: .utf8)
        #expect(stderr.contains("error: \(Self.photo): timed out after 1 s"), "\(stderr)")
    }

    @Test("-q changes both outputs")
    func quality() throws {
        let (_, low) = try Self.json([Self.photo], ["-q", "40"])
        let (_, high) = try Self.json([Self.photo], ["-q", "95"])
        for name in ["keep", "strip"] {
            let small = try Self.mode(try #require(low.first), name)
            let large = try Self.mode(try #require(high.first), name)
            #expect((small["bytes"] as? Int ?? 0) < (large["bytes"] as? Int ?? 0), "\(name)")
            #expect((small["yPSNR"] as? Double ?? 99) < (large["yPSNR"] as? Double ?? 0), "\(name)")
        }
    }

    @Test("iPhone 13 Pro (corpus): the maker note is kept in keep mode and dropped in strip mode",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func iPhoneMakerNote() throws {
        let corpus = try #require(Tool.corpus)
        let (outcome, entries) = try Self.json([corpus + "/iphone/iphone13pro-depth-gainmap.heic"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(entries.first)
        let source = try #require(entry["source"] as? [String: Any])
        let makerNote = try #require(source["makerNoteBytes"] as? Int)
        #expect(makerNote > 100)
        let keep = try Self.mode(entry, "keep")
        #expect(keep["makerNote"] as? Bool == true && keep["makerNoteBytes"] as? Int == makerNote)
        #expect(keep["gps"] as? Bool == true && keep["exifTagsDropped"] as? Int == 0)
        let lossy = try Self.mode(entry, "strip")
        #expect(lossy["makerNote"] as? Bool == false && lossy["exif"] as? Bool == false)
        #expect((keep["yPSNR"] as? Double ?? 0) > 30 && (lossy["yPSNR"] as? Double ?? 0) > 30)
    }
}
