import Foundation
import H2JAVCodec
import H2JSupport
import H2JTestSupport
import Testing

/// `--decoder`: libavcodec and libde265 give byte-identical JPEGs for every sample and
/// corpus file; without libavcodec (`H2J_AVCODEC_NAMES=none` hides it) `auto` falls back
/// to libde265 and `avcodec-unchecked` stops the run.
@Suite("Tile decoders: libavcodec and libde265 write the same JPEGs")
struct TileDecoderEndToEndTests {
    /// The JSON report lines of a run, by source.
    static func report(_ path: String) throws -> [String: [String: Any]] {
        var lines: [String: [String: Any]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let source = object["source"] as? String { lines[source] = object }
        }
        return lines
    }

    /// Every file under `root` (a file name → bytes), relative names.
    static func files(under root: String) -> [String: Data] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        var files: [String: Data] = [:]
        for case let name as String in walker {
            var directory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &directory), !directory.boolValue {
                files[name] = FileManager.default.contents(atPath: root + "/" + name)
            }
        }
        return files
    }

    /// Converts `root` with each decoder and compares the outputs byte for byte.
    func checkIdentical(_ root: String) throws {
        let scratch = TemporaryDirectory()
        var outputs: [String: [String: Data]] = [:]
        var reports: [String: [String: [String: Any]]] = [:]
        for decoder in ["avcodec-unchecked", "de265"] {
            let output = scratch.sub(decoder), report = scratch.sub(decoder + ".jsonl")
            try Tool.run(["--decoder", decoder, "-j", "2", "-o", output, "--report", report, root])
            outputs[decoder] = Self.files(under: output)
            reports[decoder] = try Self.report(report)
        }
        let avcodec = try #require(outputs["avcodec-unchecked"]), de265 = try #require(outputs["de265"])
        #expect(!avcodec.isEmpty)
        #expect(Set(avcodec.keys) == Set(de265.keys), "\(root): different outputs")
        for (name, bytes) in avcodec where de265[name] != bytes {
            Issue.record("\(root)/\(name): the JPEGs differ")
        }
        // The same outcome for every source; the tile engine's named with its decoder.
        let tiles = try #require(reports["avcodec-unchecked"]).filter { $0.value["engine"] as? String == "tiles" }
        #expect(!tiles.isEmpty, "\(root): no file went through the tile engine")
        for (source, line) in try #require(reports["avcodec-unchecked"]) {
            let other = reports["de265"]?[source]
            #expect(line["status"] as? String == other?["status"] as? String, "\(source)")
            #expect(line["engine"] as? String == other?["engine"] as? String, "\(source)")
            if line["engine"] as? String == "tiles" {
                #expect(line["decoder"] as? String == "avcodec-unchecked" && other?["decoder"] as? String == "de265", "\(source)")
            }
        }
    }

    @Test("Samples: byte-identical JPEGs with --decoder avcodec-unchecked and de265",
          .enabled(if: AVCodecLibrary.isAvailable, "libavcodec does not load"))
    func samples() throws {
        try checkIdentical(Tool.samples)
    }

    @Test("Corpus: byte-identical JPEGs with --decoder avcodec-unchecked and de265",
          .enabled(if: AVCodecLibrary.isAvailable, "libavcodec does not load"),
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func corpus() throws {
        try checkIdentical(try #require(Tool.corpus))
    }

    @Test("Wide corpus: byte-identical JPEGs with --decoder avcodec-unchecked and de265",
          .enabled(if: AVCodecLibrary.isAvailable, "libavcodec does not load"),
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
    func corpusWide() throws {
        try checkIdentical(try #require(Tool.corpusWide))
    }

    @Test("-v and compare name the decoder beside the tile engine; auto, the default, is libde265 even where libavcodec loads",
          .enabled(if: AVCodecLibrary.isAvailable, "libavcodec does not load"))
    func verboseNamesDecoder() throws {
        let scratch = TemporaryDirectory()
        let sample = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        let auto = try Tool.run(["-v", "--decoder", "auto", "-o", scratch.sub("auto.jpg"), sample])
        #expect(auto.status == 0 && auto.stderr.contains("[engine tiles/de265]"), "\(auto.stderr)")
        // The default is auto (TileDecoderChoice.defaultChoice).
        let de265 = try Tool.run(["-v", "--report", scratch.sub("report.jsonl"), "-o", scratch.sub("de265.jpg"), sample])
        #expect(de265.status == 0 && de265.stderr.contains("[engine tiles/de265]"), "\(de265.stderr)")
        // -v and the report's summary say why auto took libde265.
        #expect(de265.stderr.contains("\ndecoder: auto takes libde265: "), "\(de265.stderr)")
        let summary = try #require(try ReportFile(scratch.sub("report.jsonl")).summary)
        #expect((summary["decoderReason"] as? String)?.hasPrefix("auto takes libde265: ") == true, "\(summary)")
        let asked = try Tool.run(["-v", "--decoder", "de265", "-o", scratch.sub("asked.jpg"), sample])
        #expect(asked.status == 0 && !asked.stderr.contains("decoder: auto"), "\(asked.stderr)")
        let version = try Tool.run(["--version", "--verbose"])
        #expect(version.stdoutText.contains("\nlibavcodec \(LibraryVersion.libavcodec.version)\n"), "\(version.stdoutText)")
        #expect(LibraryVersion.libavcodec.version.first?.isNumber == true)
        #expect(version.stdoutText.contains("\ndecoder: auto takes libde265: "), "\(version.stdoutText)")
        // Checked less, libavcodec hands off no original.
        let handOff = try Tool.run(["--decoder", "avcodec-unchecked", "--state", scratch.sub("state.db"), "--delete-source", "-o", scratch.sub("out"), sample])
        #expect(handOff.status == 64 && handOff.stderr.contains("'--decoder avcodec-unchecked' may convert damaged tiles into wrong pixels"), "\(handOff.stderr)")
        // compare takes --decoder too, and names it in its engine row and JSON.
        let compared = try Tool.run(["compare", "--decoder", "avcodec-unchecked", sample])
        #expect(compared.status == 0 && compared.stdoutText.contains("tiles/avcodec-unchecked  tiles/avcodec-unchecked"), "\(compared.stdoutText)")
        let json = try Tool.run(["compare", "--json", sample])
        #expect(json.stdoutText.components(separatedBy: "\"engine\":\"tiles\",\"decoder\":\"de265\"").count == 3, "\(json.stdoutText)")
    }

    /// heic2jpg with libavcodec hidden: the list of names it tries is replaced by one
    /// that does not exist, as on a machine without the package.
    func withoutLibavcodec(_ arguments: [String]) throws -> Tool.Outcome {
        try Tool.run(["H2J_AVCODEC_NAMES=libavcodec-absent.so.0", Tool.binary] + arguments, executable: "/usr/bin/env")
    }

    @Test("Without libavcodec: auto converts (and compares) with libde265, --decoder avcodec-unchecked stops with 69 and says why")
    func absent() throws {
        let scratch = TemporaryDirectory()
        let sample = Tool.samples + "/photo-exif-gps-xmp-icc.heic"
        let auto = try withoutLibavcodec(["-v", "--decoder", "auto", "-o", scratch.sub("auto.jpg"), sample])
        #expect(auto.status == 0 && auto.stderr.contains("[engine tiles/de265]"), "\(auto.stderr)")
        let de265 = try Tool.run(["--decoder", "de265", "-o", scratch.sub("de265.jpg"), sample])
        #expect(de265.status == 0)
        #expect(FileManager.default.contents(atPath: scratch.sub("auto.jpg")) == FileManager.default.contents(atPath: scratch.sub("de265.jpg")))
        let avcodec = try withoutLibavcodec(["--decoder", "avcodec-unchecked", "-o", scratch.sub("avcodec.jpg"), sample])
        #expect(avcodec.status == 69, "\(avcodec.stderr)")
        #expect(avcodec.stderr.hasPrefix("error: --decoder avcodec-unchecked: libavcodec is not available (libavcodec-absent.so.0: "), "\(avcodec.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.sub("avcodec.jpg")))
        let version = try withoutLibavcodec(["--version", "--verbose"])
        #expect(version.stdoutText.contains("\nlibavcodec not loaded: libavcodec-absent.so.0: "), "\(version.stdoutText)")
        let compared = try withoutLibavcodec(["compare", "--decoder", "avcodec-unchecked", sample])
        #expect(compared.status == 69 && compared.stdoutText.isEmpty, "\(compared.stderr)")
        #expect(compared.stderr.hasPrefix("error: --decoder avcodec-unchecked: libavcodec is not available"), "\(compared.stderr)")
        let fallback = try withoutLibavcodec(["compare", "--decoder", "auto", sample])
        #expect(fallback.status == 0 && fallback.stdoutText.contains("tiles/de265  tiles/de265"), "\(fallback.stdoutText)")
    }
}
