import Foundation
import H2JTestSupport
import Testing

/// Names are bytes from the walk to the report: none is "repaired", skipped or merged
/// with another, and no tree is too deep (issue #10, Why 2).
@Suite("End to end: names that are not UTF-8, and trees deeper than PATH_MAX")
struct RawNamesEndToEndTests {
    static func photo() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
    }

    /// Creates `name` (raw bytes) in the directory `fd` with `bytes`.
    static func create(_ directory: Int32, _ name: [UInt8], _ bytes: [UInt8]) {
        let fd = (name + [0]).withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { openat(directory, $0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        #expect(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The raw names in a directory, read with readdir (independently of heic2jpg's code).
    static func names(_ path: String) -> Set<[UInt8]> {
        guard let handle = opendir(path) else { return [] }
        defer { closedir(handle) }
        var names: Set<[UInt8]> = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.insert(name) }
        }
        return names
    }

    static let stems: [[UInt8]] = [Array("caf".utf8) + [0xE9], Array("bad".utf8) + [0xFF], Array("bad".utf8) + [0xFE],
                                   Array("bad\u{FFFD}".utf8)]

    @Test("caf\\xE9, bad\\xFF, bad\\xFE and bad\\u{FFFD}: four sources, four outputs with the same bytes, each in the report with its exact bytes")
    func bytesKept() throws {
        let scratch = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.sub("in"), withIntermediateDirectories: true)
        let directory = open(scratch.sub("in"), O_RDONLY | O_DIRECTORY)
        defer { close(directory) }
        for stem in Self.stems { Self.create(directory, stem + Array(".heic".utf8), try Self.photo()) }
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.names(scratch.sub("out")) == Set(Self.stems.map { $0 + Array(".jpg".utf8) }))
        let lines = try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).split(separator: "\n")
        let entries = try lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["source"] != nil }
        #expect(entries.count == 4 && entries.allSatisfy { $0["status"] as? String == "converted" })
        let hex = Set(entries.compactMap { $0["sourceHex"] as? String })
        let expected = Set(Self.stems.dropLast().map { stem in
            (Array((scratch.sub("in") + "/").utf8) + stem + Array(".heic".utf8)).map { String(format: "%02x", $0) }.joined()
        })
        #expect(hex == expected, "a name that is not UTF-8 gives its exact bytes; a UTF-8 one needs none")
        // On stderr a failure or warning line names the file by its own bytes.
        #expect(!outcome.stderr.contains("\u{FFFD}\u{FFFD}"))
    }

    @Test("A name that is not UTF-8 given on the command line converts to the same bytes with .jpg")
    func rawArgument() throws {
        let scratch = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.sub("in"), withIntermediateDirectories: true)
        let directory = open(scratch.sub("in"), O_RDONLY | O_DIRECTORY)
        Self.create(directory, Self.stems[0] + Array(".heic".utf8), try Self.photo())
        close(directory)
        let outcome = try ChildProcess.run("/bin/sh", ["-c", #"exec "$0" -o "$1" "$2/caf$(printf '\351').heic""#,
                                                       Tool.binary, scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(Self.names(scratch.sub("out")) == [Self.stems[0] + Array(".jpg".utf8)])
    }

    @Test("A photo 25 directories of 200 bytes deep (over 5,000 bytes, past PATH_MAX) converts; the output mirrors the tree")
    func deeperThanPathMax() throws {
        let scratch = TemporaryDirectory()
        let component = String(repeating: "d", count: 200)
        try FileManager.default.createDirectory(atPath: scratch.sub("in"), withIntermediateDirectories: true)
        var fd = open(scratch.sub("in"), O_RDONLY | O_DIRECTORY)
        for _ in 0..<25 {
            #expect(mkdirat(fd, component, 0o755) == 0)
            let next = openat(fd, component, O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        Self.create(fd, Array("photo.heic".utf8), try Self.photo())
        close(fd)
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var out = open(scratch.sub("out"), O_RDONLY | O_DIRECTORY)
        for _ in 0..<25 {
            let next = openat(out, component, O_RDONLY | O_DIRECTORY)
            close(out)
            out = next
            try #require(out >= 0, "the output tree stops early")
        }
        var info = stat()
        #expect(fstatat(out, "photo.jpg", &info, 0) == 0 && info.st_size > 1000)
        close(out)
        #expect(try String(contentsOfFile: scratch.sub("r.jsonl"), encoding: .utf8).contains(#""converted":1"#))
    }
}
