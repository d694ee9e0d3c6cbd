#if canImport(Glibc)
import Glibc
#endif
import Foundation
import H2JSupport
import H2JTestSupport
import Testing
@testable import H2JBatch

/// `--html` pages appear whole or not at all, and clean up after killed writers.
@Suite("Page files")
struct PageFileTests {
    /// The temp names of this machine in `directory`.
    static func temps(_ scratch: TemporaryDirectory) -> [String] {
        scratch.files("").filter { TempFileName.matches(Path.lastComponent($0)) }.sorted()
    }

    @Test("Written under a temp name and renamed when whole; an unfinished page leaves nothing")
    func wholeOrNothing() throws {
        let scratch = TemporaryDirectory()
        let page = try PageFile(path: scratch.sub("p.html"), inputs: [])
        try page.write("<html>\(PageFile.generator)")
        #expect(!scratch.exists("p.html"), "nothing at the path before the commit")
        #expect(Self.temps(scratch) == [TempFileName.make(0)])
        try page.commit()
        #expect(try String(contentsOfFile: scratch.sub("p.html"), encoding: .utf8).hasPrefix("<html>"))
        #expect(Self.temps(scratch).isEmpty)
        do {
            let unfinished = try PageFile(path: scratch.sub("q.html"), inputs: [])
            try unfinished.write("<html>")
        }
        #expect(!scratch.exists("q.html") && Self.temps(scratch).isEmpty, "dropped uncommitted: \(scratch.files(""))")
    }

    @Test("A killed writer's temp page is removed by the next page; a live process's is left, as is another machine's")
    func leftoversOfKilledWriters() throws {
        let scratch = TemporaryDirectory()
        // A PID above any pid_max: no such process.
        let dead = scratch.file(".heic2jpg-\(TempFileName.host)-99999999-0.tmp", Array("<html>half".utf8))
        let live = scratch.file(".heic2jpg-\(TempFileName.host)-1-0.tmp", [])
        let remote = scratch.file(".heic2jpg-0badf00d-99999999-0.tmp", [])
        // One of this process's PID: a leftover of an earlier process that had it.
        let reused = scratch.file(TempFileName.make(0), Array("stale".utf8))
        let page = try PageFile(path: scratch.sub("p.html"), inputs: [])
        #expect(!FileManager.default.fileExists(atPath: dead), "the dead writer's page went")
        #expect(FileManager.default.fileExists(atPath: live) && FileManager.default.fileExists(atPath: remote))
        try page.write("<html>\(PageFile.generator)")
        try page.commit()
        #expect(!FileManager.default.fileExists(atPath: reused))
        #expect(try String(contentsOfFile: scratch.sub("p.html"), encoding: .utf8) == "<html>\(PageFile.generator)")
    }

    @Test("A symlink planted at the temp name is not followed")
    func plantedSymlink() throws {
        let scratch = TemporaryDirectory()
        let victim = scratch.file("victim", Array("keep".utf8))
        #expect(symlink(victim, scratch.sub(TempFileName.make(0))) == 0)
        let page = try PageFile(path: scratch.sub("p.html"), inputs: [])
        try page.write("<html>")
        try page.commit()
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
    }
}
