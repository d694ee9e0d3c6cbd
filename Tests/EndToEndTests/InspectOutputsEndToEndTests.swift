import Foundation
import H2JContainer
import H2JTestSupport
import Testing

/// `inspect` says which files a conversion would write, and what they would leave out;
/// checked against what the conversion then writes and reports, with the same options.
@Suite("End to end: inspect tells what convert would write")
struct InspectOutputsEndToEndTests {
    typealias Object = [String: Any]

    /// The option sets both commands run with.
    static let optionSets: [[String]] = [
        [],
        ["--images", "primary", "--hdr", "sdr"],
        ["--stereo", "split", "--aux", "all"],
        ["--metadata", "strip", "--aux", "depth,gainmap"],
    ]

    /// Every HEIF file of Samples/ (by content), as paths: the derived images heic2jpg
    /// composes among them (the overlays, the iden chain, the grid of idens).
    static func heifSamples() -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: Tool.samples)) ?? []
        return all.filter { relative in
            guard let bytes = FileManager.default.contents(atPath: Tool.samples + "/" + relative) else { return false }
            return ImageFormat.sniff([UInt8](bytes.prefix(256))).isHEIF
        }.sorted().map { Tool.samples + "/" + $0 }
    }

    /// `inspect --json` of `files` with `options`: the objects by file path.
    static func forecasts(_ files: [String], _ options: [String]) throws -> [String: Object] {
        let outcome = try Tool.run(["inspect", "--json"] + options + files)
        let objects = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [Object], "\(outcome.stderr)")
        return Dictionary(objects.compactMap { object in (object["file"] as? String).map { ($0, object) } }, uniquingKeysWith: { a, _ in a })
    }

    /// A conversion of `inputs` with `options`: its report's objects by source path.
    static func conversion(_ inputs: [String], _ options: [String], in scratch: TemporaryDirectory) throws -> [String: Object] {
        _ = try Tool.run(options + ["--quiet", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl")] + inputs)
        var entries: [String: Object] = [:]
        for line in try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? Object, let source = object["source"] as? String {
                entries[source] = object
            }
        }
        return entries
    }

    /// The `content-not-converted` message the converter writes for what the forecast
    /// says is not carried (nil when everything is).
    static func contentMessage(_ outputs: Object) -> String? {
        let missing = outputs["notConverted"] as? [String] ?? [], leftOut = outputs["leftOut"] as? [String] ?? []
        let parts = (missing.isEmpty ? [] : ["not converted: " + missing.joined(separator: ", ")])
            + (leftOut.isEmpty ? [] : ["left out as asked: " + leftOut.joined(separator: ", ")])
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The report's warning messages of one code.
    static func warnings(_ entry: Object, _ code: String) -> [String] {
        let messages = entry["warnings"] as? [String] ?? [], codes = entry["warningCodes"] as? [String] ?? []
        return zip(codes, messages).filter { $0.0 == code }.map(\.1)
    }

    /// What the forecast and the conversion disagree on, in words (empty: nothing).
    /// `strict`: every image decodes, so the forecast must be exact; otherwise an image
    /// or gain map that fails only when decoded may be missing from the outputs.
    static func disagreements(_ forecast: Object, _ entry: Object, strict: Bool) -> [String] {
        guard let outputs = forecast["outputs"] as? Object else { return ["no outputs in the forecast"] }
        if let failure = outputs["failure"] as? String {
            return entry["status"] as? String == "failed" ? [] : ["forecast failure '\(failure)', but \(entry["status"] ?? "")"]
        }
        guard entry["status"] as? String == "converted" else {
            return strict ? ["converted in the forecast, but \(entry["status"] ?? ""): \(entry["reason"] ?? "")"] : []
        }
        let predicted = (outputs["files"] as? [Object] ?? []).map { file in
            "\(file["name"] ?? "") \(file["kind"] ?? "") \((file["items"] as? [Int])?.first ?? -1)"
        }
        let written = (entry["outputs"] as? [Object] ?? []).map { file in
            "\(((file["path"] as? String ?? "") as NSString).lastPathComponent) \(file["kind"] ?? "") \(file["item"] ?? "")"
        }
        let decodeFailures = warnings(entry, "image-not-converted").count
            + warnings(entry, "gain-map-not-used").filter { $0.contains("cannot be decoded") || $0.contains("cannot be computed") }.count
        let exact = strict || decodeFailures == 0
        var found: [String] = []
        if exact ? predicted != written : !Set(written).isSubset(of: Set(predicted)) {
            found.append("files \(predicted), written \(written)")
        }
        guard exact else { return found }
        // A source's gain map is named exactly; a computed one and a tone mapping by what they are.
        let (hdr, reported) = (outputs["hdr"] as? String, entry["hdr"] as? String)
        let computed = (outputs["files"] as? [Object] ?? []).contains { $0["computedGainMap"] as? Bool == true }
        let agrees = computed ? reported?.hasPrefix("Ultra HDR: gain map computed from the HDR and SDR renditions") == true
            : hdr?.hasPrefix("SDR only, tone-mapped") == true ? reported?.hasPrefix("SDR only, tone-mapped: ") == true
            : hdr == reported
        if !agrees { found.append("hdr '\(hdr ?? "")', reported '\(reported ?? "")'") }
        let content = warnings(entry, "content-not-converted")
        if content != [Self.contentMessage(outputs)].compactMap({ $0 }) {
            found.append("content \(String(describing: Self.contentMessage(outputs))), reported \(content)")
        }
        let notUsed = warnings(entry, "gain-map-not-used")
        if notUsed != [outputs["gainMapNotUsed"] as? String].compactMap({ $0 }) {
            found.append("gain map not used '\(outputs["gainMapNotUsed"] ?? "")', reported \(notUsed)")
        }
        let notWritten = (outputs["notWritten"] as? [Object] ?? []).count
        if notWritten != warnings(entry, "image-not-converted").count {
            found.append("\(notWritten) not written, reported \(warnings(entry, "image-not-converted"))")
        }
        return found
    }

    @Test("Samples: with each option set, inspect names exactly the files, kinds, items, HDR and left-out content the conversion reports",
          arguments: optionSets)
    func samples(_ options: [String]) throws {
        let files = Self.heifSamples()
        #expect(files.count >= 15, "\(files)")
        let forecasts = try Self.forecasts(files, options)
        let scratch = TemporaryDirectory()
        let entries = try Self.conversion(files, options, in: scratch)
        for file in files {
            let forecast = try #require(forecasts[file], "\(file): no forecast")
            let entry = try #require(entries[file], "\(file): not converted")
            let disagreements = Self.disagreements(forecast, entry, strict: true)
            #expect(disagreements.isEmpty, "\(options) \((file as NSString).lastPathComponent): \(disagreements)")
        }
        // Every file written is one the forecasts named, and no more.
        let named = forecasts.values.flatMap { (($0["outputs"] as? Object)?["files"] as? [Object] ?? []).compactMap { $0["name"] as? String } }
        #expect(scratch.files("out").sorted() == named.sorted(), "\(options)")
    }

    @Test("Samples: names, kinds and layouts of a collection, a stereo pair, and Apple and ISO gain maps")
    func sampleOutputs() throws {
        let names = ["collection-3-images.heic", "stereo-pair-ster.heic", "gainmap-apple.heic", "gainmap-tmap.heic"]
        let defaults = try Self.forecasts(names.map { Tool.samples + "/" + $0 }, [])
        func outputs(_ forecasts: [String: Object], _ name: String) throws -> Object {
            try #require(forecasts[Tool.samples + "/" + name]?["outputs"] as? Object, "\(name)")
        }
        func files(_ outputs: Object) -> [String] {
            (outputs["files"] as? [Object] ?? []).map { file in
                "\(file["name"] ?? "") \(file["kind"] ?? "") \(file["layout"] ?? "") "
                    + ((file["items"] as? [Int]) ?? []).map(String.init).joined(separator: ",") + (file["gainMap"].map { " +\($0)" } ?? "")
            }
        }
        let collection = try outputs(defaults, "collection-3-images.heic")
        #expect(files(collection) == ["collection-3-images.jpg primary jpeg 1", "collection-3-images-2.jpg image jpeg 2",
                                      "collection-3-images-3.jpg image jpeg 3"])
        #expect(collection["notConverted"] as? [String] == [] && collection["hdr"] is NSNull)
        #expect(files(try outputs(defaults, "stereo-pair-ster.heic")) == ["stereo-pair-ster.jpg primary mpo 1,2"])
        let apple = try outputs(defaults, "gainmap-apple.heic")
        #expect(files(apple) == ["gainmap-apple.jpg primary ultrahdr 1 +2"])
        #expect(apple["hdr"] as? String == "Ultra HDR: Apple gain map (item 2), headroom 4 from the XMP HDRGainMapHeadroom")
        let tmap = try outputs(defaults, "gainmap-tmap.heic")
        #expect(files(tmap) == ["gainmap-tmap.jpg primary ultrahdr 1 +2"])
        #expect(tmap["hdr"] as? String == "Ultra HDR: ISO 21496-1 gain map ('tmap' item 3, gain map item 2)")
        let toneMap = try #require(defaults[Tool.samples + "/gainmap-tmap.heic"]?["toneMap"] as? Object)
        #expect(toneMap["honoured"] as? Bool == true && toneMap["minimumVersion"] as? Int == 0 && toneMap["writerVersion"] as? Int == 0)
        #expect(toneMap["baseIsHDR"] as? Bool == false && toneMap["alternateHeadroom"] as? Double == 2)

        let asked = try Self.forecasts(names.map { Tool.samples + "/" + $0 }, ["--images", "primary", "--stereo", "split", "--hdr", "sdr", "--aux", "depth"])
        #expect(files(try outputs(asked, "stereo-pair-ster.heic")) == ["stereo-pair-ster.jpg primary jpeg 1"])
        #expect(try outputs(asked, "collection-3-images.heic")["leftOut"] as? [String] == ["2 more images (#2, #3) (--images all writes them)"])
        let sdr = try outputs(asked, "gainmap-apple.heic")
        #expect(files(sdr) == ["gainmap-apple.jpg primary jpeg 1"] && sdr["hdr"] is NSNull)
        #expect(sdr["leftOut"] as? [String] == ["an HDR gain map (--hdr ultrahdr writes it)"])
        let split = try Self.forecasts([Tool.samples + "/stereo-pair-ster.heic"], ["--stereo", "split", "--aux", "gainmap"])
        #expect(files(try outputs(split, "stereo-pair-ster.heic")) == ["stereo-pair-ster-left.jpg image jpeg 1", "stereo-pair-ster-right.jpg image jpeg 2"])
        let strip = try Self.forecasts([Tool.samples + "/gainmap-apple.heic"], ["--metadata", "strip", "--aux", "gainmap"])
        let stripped = try outputs(strip, "gainmap-apple.heic")
        #expect(files(stripped) == ["gainmap-apple.jpg primary jpeg 1", "gainmap-apple.gainmap.jpg gainmap jpeg 2"] && stripped["hdr"] is NSNull,
                "strip mode writes SDR only; --aux gainmap still writes the gain map as an image")
    }

    @Test("Text: the options, one line per file with its kind, the HDR source, and what is left out")
    func text() throws {
        let apple = try Tool.run(["inspect", "--hdr", "sdr", "--aux", "depth", Tool.samples + "/gainmap-apple.heic"])
        #expect(apple.status == 0)
        let lines = apple.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.contains("  outputs             --images all --stereo mpo --aux depth --hdr sdr --metadata keep"), "\(lines)")
        #expect(lines.contains("    primary           gainmap-apple.jpg: #1"))
        #expect(lines.contains("    left out as asked an HDR gain map (--hdr ultrahdr writes it)"))
        let tmap = try Tool.run(["inspect", Tool.samples + "/gainmap-tmap.heic", Tool.samples + "/stereo-pair-ster.heic"]).stdoutText
        #expect(tmap.contains("    primary           gainmap-tmap.jpg: #1, Ultra HDR with gain map #2\n"), "\(tmap)")
        #expect(tmap.contains("    HDR               Ultra HDR: ISO 21496-1 gain map ('tmap' item 3, gain map item 2)\n"))
        #expect(tmap.contains("  gain map            tmap #3 (base #1, gain map #2): ISO 21496-1 version 0 (writer 0), headroom 0 → 2 stops, 1 channel\n"))
        #expect(tmap.contains("    altr #4           #3, #1 (alternatives, preferred first)\n"))
        #expect(tmap.contains("    ster #4           #1, #2 (stereo pair, left first)\n"))
        #expect(tmap.contains("    primary           stereo-pair-ster.jpg: MPO of #1 (left) and #2 (right)\n"))
        let usage = try Tool.run(["inspect", "--hdr", "hdr", Tool.samples + "/gainmap-tmap.heic"])
        #expect(usage.status == 64 && usage.stderr.contains("expected 'ultrahdr' or 'sdr'"))
        let jpeg = try Self.forecasts([Tool.samples + "/actually-a-jpeg.heic"], [])
        #expect(jpeg.values.first?["outputs"] == nil, "a JPEG is copied, not planned")
    }
}

/// The same check over `../shared/corpus-wide` (groups, sequences, gain maps, `mini`,
/// odd structures) and `../shared/corpus` (phone photos): here an image or gain map may
/// fail only when decoded, which `inspect` cannot see, so the forecast must then hold
/// every file written, and be exact otherwise.
@Suite("End to end: inspect tells what convert would write, on the corpora",
       .enabled(if: Tool.corpusWide != nil || Tool.corpus != nil, "neither ../shared/corpus-wide nor ../shared/corpus is present"))
struct InspectOutputsCorpusEndToEndTests {
    typealias Object = [String: Any]

    @Test("corpus-wide: with the defaults and with --stereo split --aux all",
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"),
          arguments: [[String](), ["--stereo", "split", "--aux", "all"]])
    func corpusWide(_ options: [String]) throws {
        let wide = try #require(Tool.corpusWide)
        let directories = ["collections", "depth-alpha", "gainmap", "hdr-pq", "mini", "phones", "structure"].map { wide + "/" + $0 }
            .filter { FileManager.default.fileExists(atPath: $0) }
        let files = directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map { directory + "/" + $0 }
        }
        #expect(files.count >= 40)
        let forecasts = try InspectOutputsEndToEndTests.forecasts(files, options)
        let entries = try InspectOutputsEndToEndTests.conversion(directories, options, in: TemporaryDirectory())
        var exact = 0
        for file in files {
            guard let entry = entries[file], let forecast = forecasts[file], forecast["error"] == nil else { continue }
            let disagreements = InspectOutputsEndToEndTests.disagreements(forecast, entry, strict: false)
            #expect(disagreements.isEmpty, "\(options) \(file.dropFirst(wide.count + 1)): \(disagreements)")
            if InspectOutputsEndToEndTests.warnings(entry, "image-not-converted").isEmpty { exact += 1 }
        }
        #expect(exact >= 30, "most files decode whole, so most forecasts are checked exactly")
    }

    @Test("corpus: the default run's outputs, HDR and warnings are what inspect says",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func corpus() throws {
        let run = try CorpusConversion.keep
        let files = CorpusEndToEndTests.goodFiles(run.corpus)
        let forecasts = try InspectOutputsEndToEndTests.forecasts(files.map { run.corpus + "/" + $0 }, [])
        var checked = 0
        for file in files {
            guard let entry = run.entries[file], let forecast = forecasts[run.corpus + "/" + file] else { continue }
            // The run's report names outputs under its own directory; names are compared by file name.
            let disagreements = InspectOutputsEndToEndTests.disagreements(forecast, entry, strict: false)
            #expect(disagreements.isEmpty, "\(file): \(disagreements)")
            checked += 1
        }
        #expect(checked == files.count && checked >= 10)
    }
}
