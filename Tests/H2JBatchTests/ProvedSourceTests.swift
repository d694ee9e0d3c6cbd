import Foundation
import H2JDigest
import H2JTestSupport
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JSupport

/// `ProvedSource`: the proof that the file at a source's name is the one converted, and
/// the removal of exactly that inode.
@Suite("Hand-off: proving and removing a source")
struct ProvedSourceTests {
    /// A source with its identity and digest as a conversion would have recorded them.
    static func source(_ scratch: TemporaryDirectory, _ bytes: [UInt8] = Array("photo".utf8)) throws -> (String, SourceIdentity, String) {
        let path = scratch.file("in/p.heic", bytes)
        var info = stat()
        #expect(stat(path, &info) == 0)
        return (path, SourceIdentity(info), SourceDigest.hex(of: bytes))
    }

    static func changed(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as SourceChanged {
            return error.reason
        } catch {
            return "not SourceChanged: \(error)"
        }
    }

    @Test("The converted file is deleted, and nothing is left beside it")
    func deletes() throws {
        let scratch = TemporaryDirectory()
        let (path, identity, digest) = try Self.source(scratch)
        try ProvedSource.prove(path, converted: identity, sha256: digest).delete()
        #expect(scratch.files("in").isEmpty)
    }

    @Test("Another file at the name, the same bytes at another inode, or other bytes behind the same size, mtime and inode are not the file converted")
    func refusesAnotherFile() throws {
        let scratch = TemporaryDirectory()
        let (path, identity, digest) = try Self.source(scratch)
        // Rewritten in place, its mtime put back: only the ctime and the bytes tell.
        var before = stat()
        #expect(stat(path, &before) == 0)
        let fd = open(path, O_WRONLY)
        #expect(pwrite(fd, "P", 1, 0) == 1 && futimens(fd, [before.st_atim, before.st_mtim]) == 0)
        close(fd)
        #expect(Self.changed { _ = try ProvedSource.prove(path, converted: identity, sha256: digest) }?.contains("ctime") == true)
        var rewritten = stat()
        #expect(stat(path, &rewritten) == 0)
        let behind = Self.changed { _ = try ProvedSource.prove(path, converted: SourceIdentity(rewritten), sha256: digest) }
        #expect(behind?.contains("SHA-256") == true, "\(behind ?? "proved")")
        // The same bytes, copied and renamed over it: another inode.
        _ = scratch.file("in/new", Array("photo".utf8))
        #expect(rename(scratch.sub("in/new"), path) == 0)
        #expect(Self.changed { _ = try ProvedSource.prove(path, converted: identity, sha256: digest) }?.contains("another file") == true)
        #expect(scratch.files("in") == ["p.heic"])
    }

    @Test("A symbolic link or a FIFO at the name is refused at once, never followed nor waited on")
    func refusesLinksAndFIFOs() throws {
        let scratch = TemporaryDirectory()
        let (path, identity, digest) = try Self.source(scratch)
        let target = scratch.file("elsewhere.heic", Array("photo".utf8))
        #expect(unlink(path) == 0 && symlink(target, path) == 0)
        #expect(throws: HandOffRefusal.self) { _ = try ProvedSource.prove(path, converted: identity, sha256: digest) }
        #expect(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
        #expect(throws: HandOffRefusal.self) { _ = try ProvedSource.prove(path, converted: identity, sha256: digest) }
        #expect(FileManager.default.fileExists(atPath: target))
    }

    @Test("Moved within a file system by a rename that never replaces; a file at the target keeps the source where it was")
    func moves() throws {
        let scratch = TemporaryDirectory()
        let (path, identity, digest) = try Self.source(scratch)
        _ = scratch.file("done/taken.heic", Array("theirs".utf8))
        #expect(throws: HandOffRefusal.self) {
            try ProvedSource.prove(path, converted: identity, sha256: digest).move(to: scratch.sub("done/taken.heic"), sha256: digest)
        }
        #expect(scratch.files("in") == ["p.heic"] && FileManager.default.contents(atPath: scratch.sub("done/taken.heic")) == Data("theirs".utf8))
        try ProvedSource.prove(path, converted: identity, sha256: digest).move(to: scratch.sub("done/p.heic"), sha256: digest)
        #expect(scratch.files("in").isEmpty && FileManager.default.contents(atPath: scratch.sub("done/p.heic")) == Data("photo".utf8))
    }

    @Test("The private name keeps the extension and fits a file name's 255 bytes")
    func privateName() {
        #expect(ProvedSource.privateName("IMG_0001.HEIC") == ".heic2jpg-handoff-\(getpid())-IMG_0001.HEIC")
        let long = String(repeating: "x", count: 250) + ".heic"
        #expect(ProvedSource.privateName(long) == ".heic2jpg-handoff-\(getpid()).heic")
    }
}
