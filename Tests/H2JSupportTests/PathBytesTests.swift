import Foundation
import Glibc
import H2JTestSupport
import Testing
@testable import H2JSupport

/// File names are bytes: every byte string survives the trip through a Swift string,
/// and distinct byte names stay distinct.
@Suite("Path bytes: the lossless name escape")
struct PathBytesTests {
    @Test("UTF-8 names are themselves; bytes that are not UTF-8 are escaped, one character each")
    func escapes() {
        #expect(PathBytes.string(Array("café/IMG_0001.HEIC".utf8)) == "café/IMG_0001.HEIC")
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".heic".utf8)
        let name = PathBytes.string(latin1)
        #expect(name.unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0x10FFE9, 0x2E, 0x68, 0x65, 0x69, 0x63])
        #expect(PathBytes.bytes(name) == latin1)
        #expect(PathBytes.hasEscapes(name) && !PathBytes.hasEscapes("café"))
        // Overlong forms, surrogates, truncated sequences and stray continuation bytes.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF, 0xFE]] {
            #expect(PathBytes.bytes(PathBytes.string(bad)) == bad, "\(bad)")
            #expect(PathBytes.hasEscapes(PathBytes.string(bad)), "\(bad)")
        }
    }

    @Test("bad\\xFF, bad\\xFE and bad\\u{FFFD} are three names, not one")
    func distinctNames() {
        let names = [[0xFF], [0xFE], [0xEF, 0xBF, 0xBD]].map { PathBytes.string(Array("bad".utf8) + $0) }
        #expect(Set(names.map { Array($0.utf8) }).count == 3)
        #expect(names[2] == "bad\u{FFFD}")
    }

    @Test("A name holding an escape character itself still round-trips (each of its bytes is escaped)")
    func escapeCharacterInName() {
        let raw = Array("x".utf8) + Array(String(Unicode.Scalar(0x10FFE9)!).utf8)
        let name = PathBytes.string(raw)
        #expect(PathBytes.bytes(name) == raw)
        #expect(name != PathBytes.string(Array("x".utf8) + [0xE9]))
    }

    @Test("Random byte strings: string then bytes is the identity, and distinct bytes give distinct strings")
    func randomRoundTrips() {
        var generator = SeededGenerator("randomRoundTrips")
        var seen: [[UInt8]: [UInt8]] = [:]
        for _ in 0..<20_000 {
            let raw = (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let name = PathBytes.string(raw)
            #expect(PathBytes.bytes(name) == raw)
            let key = Array(name.utf8)
            if let other = seen[key] { #expect(other == raw) } else { seen[key] = raw }
        }
    }

    @Test("Path arithmetic on scalars: a name starting with a combining mark keeps its slash")
    func combiningMarks() {
        #expect(Path.lastComponent("dir/\u{301}x.heic") == "\u{301}x.heic")
        #expect(Path.parent("dir/\u{301}x.heic") == "dir")
        #expect(Path.stem(".\u{301}x") == ".\u{301}x")
        #expect(Path.stem("a.\u{301}") == "a")
        #expect(Path.join("a", "b") == "a/b" && Path.join("a/", "b") == "a/b")
    }

    @Test("A path is an entry of the directory that is its parent, compared as bytes")
    func entryOfDirectory() {
        for (path, directory) in [("/o/d/x.jpg", "/o/d"), ("/o/d/\u{301}x.jpg", "/o/d"), ("d/x", "d")] {
            #expect(Path.isEntry(path, of: directory) && Path.parent(path) == directory)
        }
        for (path, directory) in [("/o/d/e/x.jpg", "/o/d"), ("/o/dd/x.jpg", "/o/d"), ("/o/d/", "/o/d"), ("/o/d", "/o/d"),
                                  ("/o/e/x.jpg", "/o/d"), ("/x.jpg", ""), ("x", "")] {
            #expect(!Path.isEntry(path, of: directory))
        }
    }

    @Test("System calls reach a path far past PATH_MAX, and name bytes that are not UTF-8")
    func longAndRawPaths() throws {
        let scratch = TemporaryDirectory()
        var path = scratch.path
        for _ in 0..<30 {
            path = Path.join(path, String(repeating: "d", count: 200))
            #expect(POSIX.makeDirectory(path, 0o755) == 0, "\(POSIX.lastError())")
        }
        #expect(PathBytes.bytes(path).count > 6000)
        let file = Path.join(path, PathBytes.string(Array("caf".utf8) + [0xE9]))
        let fd = POSIX.openFile(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        #expect(fd >= 0, "\(POSIX.lastError())")
        close(fd)
        #expect((POSIX.fileInfo(file)?.st_mode ?? 0) & 0o7777 == 0o600)
        #expect(try POSIX.directoryNames(path) == [Path.lastComponent(file)])
        #expect(POSIX.renameNoReplace(file, file + ".moved") == 0)
        #expect(POSIX.fileInfo(file) == nil && errno == ENOENT)
        #expect(POSIX.removeFile(file + ".moved") == 0)
        // A missing piece on the way: errno says so, nothing is called.
        #expect(POSIX.fileInfo(Path.join(path, "missing/" + String(repeating: "e", count: 200) + "/x")) == nil)
        #expect(errno == ENOENT)
    }
}
