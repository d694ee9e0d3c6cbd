import Foundation
import H2JTestSupport
import Testing

/// What a long run prints (issue #11, item 9): a progress line only on a terminal, that
/// never wraps; warnings summed by kind; `--quiet` silent on a clean run; a report with
/// absolute paths, the source's facts and both digests.
@Suite("End to end: what a run prints and reports")
struct RunOutputEndToEndTests {
    /// `count` copies of the monochrome Sample whose 'ispe' disagrees with its stream:
    /// each converts with a `declared-size-mismatch` warning.
    static func warnedTree(_ scratch: TemporaryDirectory, count: Int) throws -> [String] {
        var bytes = try StateEndToEndTests.sample("monochrome.heic")
        let ispe = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("ispe".utf8)) })
        bytes.replaceSubrange((ispe + 8)..<(ispe + 16), with: BoxBuilder.u32(300) + BoxBuilder.u32(200))
        return (1...count).map { scratch.file("in/IMG_\($0).HEIC", bytes) }
    }

    @Test("Warnings of one kind are one line at the end; -v prints each; --quiet prints nothing for a clean run")
    func warningsTallied() throws {
        let scratch = TemporaryDirectory()
        let sources = try Self.warnedTree(scratch, count: 4)
        let normal = try Tool.run(["-j", "1", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(normal.status == 0, "\(normal.stderr)")
        let lines = normal.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(normal.stderr)")
        #expect(lines.first == "warning: 4 files: declared-size-mismatch, first \(sources[0]): item 1's 'ispe' says 300×200 but its HEVC stream is 256×192 (-v prints each)")
        #expect(lines.last?.hasPrefix("heic2jpg: 4 converted, 0 copied, 0 skipped, 0 failed in ") == true)

        let verbose = try Tool.run(["-v", "--overwrite", "-o", scratch.sub("out"), scratch.sub("in")])
        for source in sources {
            #expect(verbose.stderr.contains("warning: \(source): item 1's 'ispe' says 300×200"), "\(verbose.stderr)")
        }
        #expect(!verbose.stderr.contains("4 files"))

        let quiet = try Tool.run(["--quiet", "--overwrite", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test("The report has absolute paths, the source's size and time, and the output's SHA-256 as written")
    func reportFacts() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/a/photo.heic", try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic"))
        // Relative paths on the command line: the report still says where everything is.
        let outcome = try Tool.run(["-o", "out", "--report", "r.jsonl", "in"], workingDirectory: scratch.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["photo.heic"])
        let real = try #require(realpath(scratch.path, nil).map { String(cString: $0) })
        #expect(entry["source"] as? String == real + "/in/a/photo.heic")
        let output = try #require(entry["output"] as? String)
        #expect(output == real + "/out/a/photo.jpg")
        let attributes = try FileManager.default.attributesOfItem(atPath: source)
        #expect(entry["sourceSize"] as? Int == (attributes[.size] as? Int))
        var info = stat()
        #expect(stat(source, &info) == 0)
        let mtime = try #require(entry["sourceMtime"] as? String)
        #expect(mtime.hasSuffix(String(format: ".%09dZ", Int(info.st_mtim.tv_nsec))), "\(mtime)")
        let sha256sum = try Tool.run([output], executable: "/usr/bin/sha256sum").stdoutText.prefix(64)
        #expect(entry["outputSHA256"] as? String == String(sha256sum))
        let sourceSum = try Tool.run([source], executable: "/usr/bin/sha256sum").stdoutText.prefix(64)
        #expect(entry["sourceSHA256"] as? String == String(sourceSum))
    }

    @Test("On a terminal the progress line shows the count and never passes its width; through a pipe there is none",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is not installed"))
    func progressOnTerminal() throws {
        let scratch = TemporaryDirectory()
        let photo = try StateEndToEndTests.sample("monochrome.heic")
        for n in 0..<40 { scratch.file("in/d\(n % 4)/a-rather-long-folder-name-for-the-line/IMG_\(n).HEIC", photo) }
        for columns in [30, 60] {
            // script(1) gives the run a pseudo-terminal `columns` wide; its output is what the terminal got.
            let command = "stty cols \(columns); '\(Tool.binary)' -j 1 -o '\(scratch.sub("out\(columns)"))' '\(scratch.sub("in"))'"
            let outcome = try Tool.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let text = outcome.stdoutText
            let frames = text.components(separatedBy: "\r\u{1B}[K").dropFirst()
                .map { $0.components(separatedBy: CharacterSet(charactersIn: "\r\n")).first ?? "" }
                // What follows the last erase is the summary line, not a frame.
                .filter { !$0.isEmpty && !$0.hasPrefix("heic2jpg: ") }
            #expect(!frames.isEmpty, "no progress line in \(text.debugDescription)")
            for frame in frames {
                #expect(frame.unicodeScalars.count <= columns - 1, "\(frame.debugDescription) is wider than \(columns - 1)")
                #expect(frame.contains("failed"), "\(frame.debugDescription)")
            }
            // The background count gives a total long before the walk reaches the end.
            #expect(frames.contains { $0.contains("/~40") || $0.contains("/40") }, "\(frames)")
            #expect(text.contains("heic2jpg: 40 converted"))
        }
        let piped = try Tool.run(["-o", scratch.sub("out-piped"), scratch.sub("in")])
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("failed ·"), "\(piped.stderr)")
    }
}
