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

    @Test("keep mode: every good file converts correctly, every bad file fails with a reason, nothing stray")
    func keepMode() throws {
        let run = try CorpusConversion.keep
        let (corpus, outcome, entries) = (run.corpus, run.outcome, run.entries)
        #expect(outcome.status == 1, "bad/ files must make the run exit 1")
        let good = Self.goodFiles(corpus)
        #expect(good.count >= 15)
        for file in good {
            let output = run.output(for: file)
            #expect(entries[file]?["status"] as? String == "converted", "\(file): \(entries[file]?["reason"] ?? "no result")")
            let problems = try OutputCheck.problems(source: corpus + "/" + file, output: output)
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
        for file in Self.badFiles(corpus) {
            #expect(entries[file]?["status"] as? String == "failed", "\(file) should fail")
            let reason = entries[file]?["reason"] as? String ?? ""
            #expect(reason.count > 10, "\(file): reason '\(reason)' does not name the problem")
        }
        let expected = good.map { ($0 as NSString).deletingPathExtension + ".jpg" }.sorted()
        #expect(run.outputFiles() == expected, "no stray, partial or temp files")
    }

    @Test("strip mode: no EXIF, XMP or GPS; ICC kept; the very image data of keep mode")
    func stripMode() throws {
        let run = try CorpusConversion.strip, keep = try CorpusConversion.keep
        let (corpus, entries) = (run.corpus, run.entries)
        for file in Self.goodFiles(corpus) {
            let output = run.output(for: file)
            #expect(entries[file]?["status"] as? String == "converted", "\(file)")
            // The keep-mode test checks those pixels against libheif's.
            let problems = try OutputCheck.problems(source: corpus + "/" + file, output: output, strip: true,
                                                    samePixelsAs: keep.output(for: file))
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
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

    @Test("Tag for tag: every EXIF, maker-note, XMP and ICC tag of the primary survives with its value; -validate adds nothing")
    func tagForTag() throws {
        let run = try CorpusConversion.keep
        let (corpus, entries) = (run.corpus, run.entries)
        var totalKept = 0
        for file in Self.goodFiles(corpus) {
            let source = corpus + "/" + file
            let output = run.output(for: file)
            let before = try Self.metadataTags(source), after = try Self.metadataTags(output)
            let afterByName = Dictionary(grouping: after, by: { $0.key.split(separator: ":").last.map(String.init) ?? $0.key })
            let warnings = entries[file]?["warnings"] as? [String] ?? []
            for (key, value) in before where !Self.documentedEdits.contains(key) {
                if key.hasPrefix("IFD1:"), after[key] == nil, warnings.contains(where: { $0.contains("thumbnail") }) { continue }
                if after[key] == value { totalKept += 1; continue }
                // A value that moved group (an oversized EXIF field into XMP) is kept.
                let name = key.split(separator: ":").last.map(String.init) ?? key
                if after[key] == nil, afterByName[name]?.contains(where: { $0.value == value }) == true { totalKept += 1; continue }
                Issue.record("\(file): \(key) \(value.prefix(60)) -> \(after[key].map { String($0.prefix(60)) } ?? "missing")")
            }
            let inherited = Self.inheritedWarnings[file] ?? []
            let added = try Self.validationWarnings(output).subtracting(Self.validationWarnings(source))
                .filter { warning in !inherited.contains { warning.contains($0) } }
            #expect(added.isEmpty, "\(file): \(added.sorted())")
        }
        #expect(totalKept > 900, "the corpus has about a thousand primary-image tags")
    }
}
