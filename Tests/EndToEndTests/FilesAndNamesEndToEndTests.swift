import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// Outputs keep their sources' privacy, and every name the file system allows works.
@Suite("End to end: permissions and names")
struct FilesAndNamesEndToEndTests {
    static func photo() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test("A 0600 photo in a 0700 directory becomes a 0600 JPEG in a 0700 directory; 0755 files lose execute")
    func privatePhotosStayPrivate() throws {
        let scratch = TemporaryDirectory()
        let secret = scratch.file("in/private/secret.heic", try Self.photo())
        let shared = scratch.file("in/shared/open.heic", try Self.photo())
        #expect(chmod(secret, 0o600) == 0 && chmod(scratch.sub("in/private"), 0o700) == 0)
        #expect(chmod(shared, 0o755) == 0 && chmod(scratch.sub("in/shared"), 0o750) == 0)
        let outcome = try Tool.run(["--quiet", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.mode(scratch.sub("out/private/secret.jpg")) == 0o600)
        #expect(Self.mode(scratch.sub("out/private")) == 0o700)
        #expect(Self.mode(scratch.sub("out/shared/open.jpg")) == 0o644)
        #expect(Self.mode(scratch.sub("out/shared")) == 0o750)
    }

    @Test("Run as root, outputs and the directories made for them get their sources' owner and group",
          .enabled(if: geteuid() == 0, "needs root"))
    func rootKeepsOwners() throws {
        let scratch = TemporaryDirectory()
        let photo = scratch.file("in/user/photo.heic", try Self.photo())
        #expect(chown(photo, 65534, 65534) == 0 && chown(scratch.sub("in/user"), 65534, 65534) == 0)
        let outcome = try Tool.run(["--quiet", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for path in [scratch.sub("out/user/photo.jpg"), scratch.sub("out/user")] {
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_uid == 65534 && info.st_gid == 65534, "\(path)")
        }
    }

    @Test("Names of up to 255 bytes convert: the temp name does not grow with the output's")
    func longNames() throws {
        let scratch = TemporaryDirectory()
        // 250 bytes + ".heic": the output, 250 + ".jpg", is 254 bytes.
        let stem = String(repeating: "é", count: 120) + String(repeating: "x", count: 10)
        #expect(stem.utf8.count == 250)
        scratch.file("in/\(stem).heic", try Self.photo())
        let outcome = try Tool.run(["--quiet", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Reference.jpeg(scratch.sub("out/\(stem).jpg")) != nil)
        #expect(scratch.files("out") == ["\(stem).jpg"])
    }

    @Test("café in NFC and in NFD are two names on disk, so two outputs, not a collision")
    func normalisationForms() throws {
        let scratch = TemporaryDirectory()
        let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
        #expect(Array(nfc.utf8) != Array(nfd.utf8))
        scratch.file("in/\(nfc).heic", try Self.photo())
        scratch.file("in/\(nfd).heic", try Self.photo())
        let outcome = try Tool.run(["-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("2 converted, 0 copied, 0 skipped, 0 failed"), "\(outcome.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.sub("out")).map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(names == [Array("\(nfd).jpg".utf8), Array("\(nfc).jpg".utf8)].sorted { $0.lexicographicallyPrecedes($1) })
    }
}

/// No photo is skipped silently: what the walk cannot read is a failure, and the run exits 1.
@Suite("End to end: unreadable parts of a tree")
struct UnreadableTreeEndToEndTests {
    /// Runs the binary as an unprivileged user when this process is root (root reads
    /// through any permission bits, so they would test nothing).
    static func runUnprivileged(_ arguments: [String]) throws -> ChildProcess.Output {
        guard geteuid() == 0 else { return try Tool.run(arguments) }
        return try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Tool.binary] + arguments)
    }

    @Test("Subdirectories of mode 000, r-- and --x, and entries that cannot be examined, fail with the errno's text")
    func unreadableSubdirectories() throws {
        let scratch = TemporaryDirectory()
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
        scratch.file("in/a.heic", photo)
        scratch.file("in/none/b.heic", photo)
        scratch.file("in/listonly/c.heic", photo)
        scratch.file("in/enteronly/d.heic", photo)
        #expect(chmod(scratch.path, 0o777) == 0)
        #expect(chmod(scratch.sub("in/none"), 0o000) == 0)
        #expect(chmod(scratch.sub("in/listonly"), 0o444) == 0)
        #expect(chmod(scratch.sub("in/enteronly"), 0o111) == 0)
        defer { for dir in ["none", "listonly", "enteronly"] { chmod(scratch.sub("in/\(dir)"), 0o755) } }
        let outcome = try Self.runUnprivileged(["-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let errors = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map(String.init)
        #expect(errors == [
            "error: \(scratch.sub("in/enteronly")): cannot list directory: Permission denied",
            "error: \(scratch.sub("in/listonly/c.heic")): cannot examine: Permission denied",
            "error: \(scratch.sub("in/none")): cannot list directory: Permission denied",
        ], "\(outcome.stderr)")
        #expect(outcome.stderr.contains("1 converted, 0 copied, 0 skipped, 3 failed"), "\(outcome.stderr)")
    }
}

/// A declared size that disagrees with the pixels is said, per file.
@Suite("End to end: declared sizes")
struct DeclaredSizeEndToEndTests {
    @Test("An 'ispe' that is not the HEVC stream's size is a warning naming both sizes")
    func ispeMismatch() throws {
        let scratch = TemporaryDirectory()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
        // The one 'ispe' (256×192): its width and height follow the FullBox header.
        let ispe = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("ispe".utf8)) })
        bytes.replaceSubrange((ispe + 8)..<(ispe + 16), with: BoxBuilder.u32(300) + BoxBuilder.u32(200))
        let source = scratch.file("in/odd.heic", bytes)
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.stderr.contains("warning: 1 file: declared-size-mismatch, \(source): item 1's 'ispe' says 300×200 but its HEVC stream is 256×192"),
                "\(outcome.stderr)")
        let report = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8)
        #expect(report.contains(#""declared-size-mismatch""#))
    }
}
