import Foundation
import H2JTestSupport
import Testing
@testable import H2JSupport
@testable import H2JBatch
@testable import H2JConvert

@Suite("Walking inputs and naming outputs")
struct InputWalkerTests {
    func walk(_ inputs: [String], output: String?) -> [Candidate] {
        InputWalker(inputs: inputs, outputRoot: output).compactMap { try? $0.get() }
    }

    @Test("A directory maps to OUTPUT/<relative path>, sorted, depth first")
    func directoryMapping() {
        let dir = TemporaryDirectory()
        dir.file("in/b.heic", TemporaryDirectory.heif)
        dir.file("in/a.HEIC", TemporaryDirectory.heif)
        dir.file("in/sub/deep/c.hif", TemporaryDirectory.heif)
        let found = walk([dir.path + "/in"], output: dir.path + "/out")
        #expect(found.map(\.path) == [dir.path + "/in/a.HEIC", dir.path + "/in/b.heic", dir.path + "/in/sub/deep/c.hif"])
        #expect(found.map(OutputNaming.template(.standard).path) == [dir.path + "/out/a.jpg", dir.path + "/out/b.jpg", dir.path + "/out/sub/deep/c.jpg"])
        #expect(found.allSatisfy { !$0.explicit })
    }

    @Test("Each walked directory is left once, after its subdirectories; a directory's claims may then go only when no other input can reach it")
    func leavingDirectories() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/m/b.heic", TemporaryDirectory.heif)
        dir.file("in/m/n/c.heic", TemporaryDirectory.heif)
        dir.file("in/z.heic", TemporaryDirectory.heif)
        dir.file("other/d.heic", TemporaryDirectory.heif)
        var events: [String] = []
        let walker = InputWalker(inputs: [dir.sub("in")], outputRoot: dir.sub("out"), onLeave: { events.append("leave " + $0.outputDirectory) })
        for found in walker { if case .success(let candidate) = found { events.append(candidate.path) } }
        #expect(events == [dir.sub("in/a.heic"), dir.sub("in/m/b.heic"), dir.sub("in/m/n/c.heic"), "leave " + dir.sub("out/m/n"),
                           "leave " + dir.sub("out/m"), dir.sub("in/z.heic"), "leave " + dir.sub("out")])
        #expect(RunSession.claimsReleasable([dir.sub("in")], outputRoot: dir.sub("out")))
        #expect(RunSession.claimsReleasable([dir.sub("in"), dir.sub("other")], outputRoot: nil))
        #expect(!RunSession.claimsReleasable([dir.sub("in"), dir.sub("other")], outputRoot: dir.sub("out")), "one output tree")
        #expect(!RunSession.claimsReleasable([dir.sub("in"), dir.sub("in/m")], outputRoot: nil), "nested inputs")
        #expect(!RunSession.claimsReleasable([dir.sub("in"), dir.sub("in/../in")], outputRoot: nil), "the same directory twice")
        #expect(!RunSession.claimsReleasable([dir.sub("in"), dir.sub("other/d.heic")], outputRoot: nil), "a file input")
    }

    @Test("Without --output, outputs go next to their sources")
    func nextToSource() {
        let dir = TemporaryDirectory()
        dir.file("in/x/photo.heic", TemporaryDirectory.heif)
        #expect(walk([dir.path + "/in"], output: nil).map(\.outputDirectory) == [dir.path + "/in/x"])
    }

    @Test("A file input maps to OUTPUT/<stem>; only the last extension goes")
    func fileMapping() {
        let dir = TemporaryDirectory()
        let file = dir.file("deep/down/holiday.2024.heic", TemporaryDirectory.heif)
        let found = walk([file], output: "/o")
        #expect(found == [Candidate(path: file, outputDirectory: "/o", explicit: true, root: dir.path + "/deep/down",
                                    relativePath: "holiday.2024.heic")])
        #expect(found.first?.info?.st_size == Int(TemporaryDirectory.heif.count))
        #expect(walk([file], output: nil).first.map(OutputNaming.template(.standard).path) == dir.path + "/deep/down/holiday.2024.jpg")
    }

    @Test("Stems: no extension, dot-files")
    func stems() {
        #expect(Path.stem("IMG_1.HEIC") == "IMG_1")
        #expect(Path.stem("noext") == "noext")
        #expect(Path.stem(".hidden") == ".hidden")
        #expect(Path.stem(".hidden.heic") == ".hidden")
        #expect(Path.parent("a") == ".")
        #expect(Path.parent("/a") == "/")
        #expect(Path.lastComponent("dir/") == "dir")
        // A `/` and the combining mark after it are one Character: the cut is made in scalars.
        #expect(Path.lastComponent("a/\u{301}b.heic") == "\u{301}b.heic")
        #expect(Path.parent("d\u{301}/\u{301}x") == "d\u{301}")
        #expect(Path.lastComponent("/") == "" && Path.lastComponent("x") == "x" && Path.lastComponent("a/b/") == "b")
        let escaped = PathBytes.string([0x61, 0x2F, 0xFF, 0x2E, 0x68])  // "a/" and a byte that is not UTF-8
        #expect(PathBytes.bytes(Path.lastComponent(escaped)) == [0xFF, 0x2E, 0x68])
    }

    @Test("Symlinked directories are not followed; symlinked files are")
    func symlinks() throws {
        let dir = TemporaryDirectory()
        dir.file("elsewhere/x.heic", TemporaryDirectory.heif)
        dir.file("in/real.heic", TemporaryDirectory.heif)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/linkdir", withDestinationPath: dir.path + "/elsewhere")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/linkfile.heic", withDestinationPath: dir.path + "/elsewhere/x.heic")
        let names = walk([dir.path + "/in"], output: nil).map { Path.lastComponent($0.path) }
        #expect(names == ["linkfile.heic", "real.heic"])
    }

    @Test("The output root inside the input tree is not walked, nor our temp files")
    func skipsOutputAndTemps() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/out/old.heic", TemporaryDirectory.heif)
        dir.file("in/.heic2jpg-1-1.tmp", TemporaryDirectory.heif)
        #expect(walk([dir.path + "/in"], output: dir.path + "/in/out").map(\.path) == [dir.path + "/in/a.heic"])
    }

    @Test("A missing input is a failure that names it")
    func missing() {
        let results = Array(InputWalker(inputs: ["/nonexistent/x.heic"], outputRoot: nil))
        #expect(results.count == 1)
        guard case .failure(let error)? = results.first else { Issue.record("expected a failure"); return }
        #expect(error.description == "/nonexistent/x.heic: No such file or directory")
    }

    @Test("A dangling symlink named like HEIF is a failure; one named otherwise is ignored")
    func danglingSymlinks() throws {
        let dir = TemporaryDirectory()
        dir.file("in/real.heic", TemporaryDirectory.heif)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/gone.HEIC", withDestinationPath: dir.path + "/nowhere.heic")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/in/gone.txt", withDestinationPath: dir.path + "/nowhere.txt")
        let results = Array(InputWalker(inputs: [dir.path + "/in"], outputRoot: nil))
        #expect(results.count == 2)
        guard case .failure(let error)? = results.first else { Issue.record("expected a failure first"); return }
        #expect(error.description == dir.path + "/in/gone.HEIC: symlink to nothing readable: No such file or directory")
        #expect((try? results[1].get())?.path == dir.path + "/in/real.heic")
    }

    /// The walk's results, as "path: reason (code)" for failures and the path for files.
    func outcomes(_ inputs: [String]) -> [String] {
        InputWalker(inputs: inputs, outputRoot: nil).map { result in
            switch result {
            case .success(let candidate): candidate.path
            case .failure(let error): "\(error.description) (\(error.code.rawValue))"
            }
        }
    }

    @Test("Special files: an input fails with its type; in a walk those named like HEIF fail, others are passed over; a directory named like HEIF is walked")
    func specialFiles() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/d.heic/inside.heic", TemporaryDirectory.heif)
        dir.fifo("in/f.heic")
        dir.socket("in/s.heic")
        dir.symlink("in/z.heic", to: "/dev/zero")
        dir.symlink("in/l.heic", to: dir.sub("in/f.heic"))
        dir.symlink("in/sub.heic", to: dir.sub("in/d.heic"))
        dir.fifo("in/pipe")
        dir.symlink("in/zero", to: "/dev/zero")
        dir.directory("in/plain")
        let code = "(not-a-regular-file)"
        #expect(outcomes([dir.sub("in")]) == [
            dir.sub("in/a.heic"),
            dir.sub("in/d.heic/inside.heic"),
            "\(dir.sub("in/f.heic")): not a regular file: a FIFO \(code)",
            "\(dir.sub("in/l.heic")): not a regular file: a symlink to a FIFO \(code)",
            "\(dir.sub("in/s.heic")): not a regular file: a socket \(code)",
            "\(dir.sub("in/sub.heic")): not a regular file: a symlink to a directory \(code)",
            "\(dir.sub("in/z.heic")): not a regular file: a symlink to a character device \(code)",
        ])
        // Named on the command line, whatever the name; a directory named like HEIF is walked,
        // with or without a trailing /.
        #expect(outcomes([dir.sub("in/pipe"), dir.sub("in/zero"), "/dev/null", dir.sub("in/d.heic"), dir.sub("in/d.heic") + "/"]) == [
            "\(dir.sub("in/pipe")): not a regular file: a FIFO \(code)",
            "\(dir.sub("in/zero")): not a regular file: a symlink to a character device \(code)",
            "/dev/null: not a regular file: a character device \(code)",
            dir.sub("in/d.heic/inside.heic"),
            dir.sub("in/d.heic/inside.heic"),
        ])
    }
}
