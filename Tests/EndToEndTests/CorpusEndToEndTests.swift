import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JMetadata
@testable import H2JSupport

/// The acceptance run over `../shared/corpus` (real phone, camera, conformance and
/// broken files). Skipped, and reported as skipped, where the corpus is absent.
@Suite("End to end on ../shared/corpus", .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
struct CorpusEndToEndTests {
    /// HEIF files outside `bad/`, by content, relative to the corpus.
    static func goodFiles(_ corpus: String) -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: corpus)) ?? []
        return all.filter { relative in
            guard !relative.hasPrefix("bad/"), let handle = FileHandle(forReadingAtPath: corpus + "/" + relative) else { return false }
            defer { try? handle.close() }
            guard let prefix = try? handle.read(upToCount: 256) else { return false }
            return ImageFormat.sniff([UInt8](prefix)).isHEIF
        }.sorted()
    }

    static func badFiles(_ corpus: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus + "/bad")) ?? []).sorted().map { "bad/" + $0 }
    }

    /// The good files, relative to the corpus: one test case each, so cases run in
    /// parallel and a failure names its file (none where the corpus is absent).
    static let good = Tool.corpus.map(goodFiles) ?? []

    @Test("keep mode: the run exits 1 for bad/, every bad file fails with a reason, nothing stray")
    func keepModeRun() throws {
        let run = try CorpusConversion.keep
        let (corpus, outcome, entries) = (run.corpus, run.outcome, run.entries)
        #expect(outcome.status == 1, "bad/ files must make the run exit 1")
        #expect(Self.good.count >= 15)
        for file in Self.badFiles(corpus) {
            #expect(entries[file]?["status"] as? String == "failed", "\(file) should fail")
            let reason = entries[file]?["reason"] as? String ?? ""
            #expect(reason.count > 10, "\(file): reason '\(reason)' does not name the problem")
        }
        // Every still image of a file is an output (`--images all`); the counts are libheif's top-level images.
        let others = ["libheif/example-2images": 1, "nokia/bird_burst": 3, "nokia/random_collection_1440x960": 3,
                      "synthetic/two-images-icc-exif-xmp": 1]
        let expected = Self.good.flatMap { file -> [String] in
            let stem = (file as NSString).deletingPathExtension
            return [stem + ".jpg"] + (0..<(others[stem] ?? 0)).map { "\(stem)-\($0 + 2).jpg" }
        }.sorted()
        #expect(run.outputFiles() == expected, "no stray, partial or temp files")
    }

    @Test("keep mode: the file converts correctly", arguments: good)
    func keepMode(_ file: String) throws {
        let run = try CorpusConversion.keep
        #expect(run.entries[file]?["status"] as? String == "converted", "\(file): \(run.entries[file]?["reason"] ?? "no result")")
        let problems = try OutputCheck.problems(source: run.corpus + "/" + file, output: run.output(for: file))
        #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
    }

    @Test("strip mode: no EXIF, XMP or GPS; ICC kept; the very image data of keep mode", arguments: good)
    func stripMode(_ file: String) throws {
        let run = try CorpusConversion.strip, keep = try CorpusConversion.keep
        #expect(run.entries[file]?["status"] as? String == "converted", "\(file)")
        // The keep-mode test checks those pixels against libheif's.
        let problems = try OutputCheck.problems(source: run.corpus + "/" + file, output: run.output(for: file), strip: true,
                                                samePixelsAs: keep.output(for: file))
        #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
    }

    // MARK: Tag for tag

    /// Tags the converter changes on purpose: the pixels are upright and have a new size,
    /// exiftool's own toolkit note differs, and a thumbnail's offset is where the fitted
    /// EXIF put it (its bytes are compared by the EXIF fitting tests).
    static let documentedEdits: Set<String> = [
        "IFD1:ThumbnailOffset", "IFD0:Orientation", "XMP-tiff:Orientation", "ExifIFD:ExifImageWidth", "ExifIFD:ExifImageHeight",
        "IFD0:ImageWidth", "IFD0:ImageHeight", "XMP-exif:PixelXDimension", "XMP-exif:PixelYDimension", "XMP-x:XMPToolkit",
    ]

    /// `exiftool -validate` warnings an output may have that its HEIF source cannot show,
    /// because exiftool applies these rules to JPEG and TIFF only; each is a defect of
    /// the source's own metadata, carried over unchanged.
    static let inheritedWarnings: [String: [String]] = [
        // Its EXIF says version 0221 but holds the EXIF 2.3 lens tags.
        "iphone/iphone8plus-rot90-thumb.heic": ["requires ExifVersion 0230 or higher"],
        // Its packet has no xpacket wrapper and binds x: to a wrong namespace, so exiftool
        // flags every property inside it, the mark's included.
        "synthetic/xmp-latin1.heic": ["Improperly enclosed XMP property", "XMP is missing xpacket wrapper"],
    ]

    /// The primary image's EXIF, maker-note, XMP and ICC tags (auxiliary images' own
    /// metadata, exiftool's "DocN:" groups, is not the primary's).
    static func metadataTags(_ path: String) throws -> [String: String] {
        let outcome = try ExifTool.run(["-j", "-G3:1", "-a", "-n", "-EXIF:all", "-XMP:all", "-ICC_Profile:all", "-MakerNotes:all", path])
        let object = (try JSONSerialization.jsonObject(with: outcome.stdout) as? [[String: Any]])?.first ?? [:]
        var tags: [String: String] = [:]
        for (key, value) in object where key != "SourceFile" && !key.hasPrefix("Doc") {
            tags[key] = "\(value)"
        }
        return tags
    }

    static func validationWarnings(_ path: String) throws -> Set<String> {
        let outcome = try ExifTool.run(["-validate", "-warning", "-a", path])
        return Set(outcome.stdoutText.split(separator: "\n").compactMap { line in
            line.hasPrefix("Warning") ? line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } : nil
        })
    }

    /// One file's tag-for-tag comparison: the problems found and the tags kept.
    static func tagProblems(_ file: String, in run: CorpusConversion) throws -> (problems: [String], kept: Int) {
        let source = run.corpus + "/" + file
        let output = run.output(for: file)
        let before = try metadataTags(source), after = try metadataTags(output)
        let afterByName = Dictionary(grouping: after, by: { $0.key.split(separator: ":").last.map(String.init) ?? $0.key })
        let warnings = run.entries[file]?["warnings"] as? [String] ?? []
        var problems: [String] = [], kept = 0
        for (key, value) in before where !documentedEdits.contains(key) {
            if key.hasPrefix("IFD1:"), after[key] == nil, warnings.contains(where: { $0.contains("thumbnail") }) { continue }
            if after[key] == value { kept += 1; continue }
            // A value that moved group (an oversized EXIF field into XMP) is kept.
            let name = key.split(separator: ":").last.map(String.init) ?? key
            if after[key] == nil, afterByName[name]?.contains(where: { $0.value == value }) == true { kept += 1; continue }
            problems.append("\(file): \(key) \(value.prefix(60)) -> \(after[key].map { String($0.prefix(60)) } ?? "missing")")
        }
        let inherited = inheritedWarnings[file] ?? []
        // An Ultra HDR output's ISO 21496-1 APP2 is a segment exiftool does not know.
        let ultraHDR = run.entries[file]?["hdr"] is String
        let added = try validationWarnings(output).subtracting(validationWarnings(source))
            .filter { warning in !inherited.contains { warning.contains($0) } }
            .filter { !(ultraHDR && $0 == "[minor] Unknown APP2 segment") }
        if !added.isEmpty { problems.append("\(file): -validate adds \(added.sorted())") }
        return (problems, kept)
    }

    @Test("Tag for tag: every EXIF, maker-note, XMP and ICC tag of the primary survives with its value; -validate adds nothing")
    func tagForTag() throws {
        let run = try CorpusConversion.keep
        // Files in parallel (each call is exiftool's); issues are recorded on this task.
        let results = Lock(), files = Self.good
        nonisolated(unsafe) var outcomes = [Result<(problems: [String], kept: Int), Error>?](repeating: nil, count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let outcome = Result { try Self.tagProblems(files[index], in: run) }
            results.withLock { outcomes[index] = outcome }
        }
        var totalKept = 0
        for outcome in outcomes {
            let (problems, kept) = try #require(outcome).get()
            problems.forEach { Issue.record(Comment(rawValue: $0)) }
            totalKept += kept
        }
        #expect(totalKept > 900, "the corpus has about a thousand primary-image tags")
    }
}
