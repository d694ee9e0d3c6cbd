import Foundation
import Glibc
import H2JTestSupport
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JSupport

@Suite("Shards and file lists")
struct ShardAndListTests {
    @Test("Every path falls in exactly one of N shards, evenly; a.heic and a.HEIC in the same one; {shard} names the state")
    func shards() throws {
        let paths = (0..<4000).map { "d\($0 % 13)/IMG_\($0).HEIC" }
        let shards = (0..<4).map { Shard(index: $0, count: 4)! }
        var counts = [0, 0, 0, 0]
        for path in paths {
            let owners = shards.filter { $0.contains(relativePath: path) }
            #expect(owners.count == 1, "\(path)")
            counts[owners.first?.index ?? 0] += 1
        }
        #expect(counts.allSatisfy { (800...1200).contains($0) }, "\(counts)")
        for n in 1...9 {
            #expect(Shard.shard(of: "x/a.heic", count: n) == Shard.shard(of: "x/a.HEIC", count: n))
            #expect(Shard.shard(of: "./x/a.heic", count: n) == Shard.shard(of: "x/a.hif", count: n))
        }
        #expect(Shard("3/4")?.stateFile("state-{shard}.db") == "state-3.db")
        #expect(Shard("0/1")?.stateFile("s.db") == "s.db")
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", ""] { #expect(Shard(bad) == nil, "\(bad)") }
    }

    static func list(_ text: [UInt8], base: String, output: String? = nil) -> [Result<Candidate, WalkError>] {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        _ = text.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        return Array(FileListWalker(fd: ends[0], name: "list", separator: text.contains(0) ? 0 : 10, base: base, outputRoot: output))
    }

    @Test("A list gives its files under the base, outputs mirroring their paths; the base and directories are passed over")
    func lists() throws {
        let scratch = TemporaryDirectory()
        scratch.file("a/x/IMG_1.HEIC", [1])
        scratch.file("a/y/IMG_1.HEIC", [1])
        let base = scratch.sub("a")
        let found = Self.list(Array("\(base)\0\(base)/x\0\(base)/x/IMG_1.HEIC\0./y/IMG_1.HEIC\0".utf8), base: base, output: "/out")
        let candidates = found.compactMap { try? $0.get() }
        #expect(candidates.map(\.relativePath) == ["x/IMG_1.HEIC", "y/IMG_1.HEIC"])
        #expect(candidates.map(OutputNaming.template(.standard).path) == ["/out/x/IMG_1.jpg", "/out/y/IMG_1.jpg"])
        #expect(candidates.allSatisfy { $0.root == base && !$0.explicit && $0.info != nil })
        let besides = Self.list(Array("x/IMG_1.HEIC\n\n".utf8), base: base).compactMap { try? $0.get() }
        #expect(besides.map(\.outputDirectory) == [base + "/x"], "without -o, next to the source")
    }

    @Test("Paths outside the base, with '..', or missing fail with a reason; nothing is dropped silently")
    func listFailures() throws {
        let scratch = TemporaryDirectory()
        scratch.file("a/IMG.HEIC", [1])
        let failures = Self.list(Array("/etc/passwd\n../a/IMG.HEIC\nmissing.HEIC\n".utf8), base: scratch.sub("a"))
            .compactMap { result -> String? in if case .failure(let error) = result { error.description } else { nil } }
        #expect(failures.count == 3, "\(failures)")
        #expect(failures[0] == "/etc/passwd: is not under --base \(scratch.sub("a"))")
        #expect(failures[2].hasSuffix("missing.HEIC: No such file or directory"))
    }

    @Test("A listed FIFO, socket or device fails as not-a-regular-file, naming its type; a listed directory named like HEIF is passed over")
    func listedSpecialFiles() throws {
        let scratch = TemporaryDirectory()
        scratch.file("a/x/IMG_1.HEIC", [1])
        scratch.directory("a/x.heic")
        scratch.fifo("a/f.heic")
        scratch.fifo("a/pipe")
        scratch.socket("a/s.heic")
        scratch.symlink("a/z.heic", to: "/dev/zero")
        let found = Self.list(Array(".\nx\nx.heic\nf.heic\npipe\ns.heic\nz.heic\nx/IMG_1.HEIC\n".utf8), base: scratch.sub("a"))
        let outcomes = found.map { result in
            switch result {
            case .success(let candidate): candidate.relativePath
            case .failure(let error): "\(Path.lastComponent(error.path)): \(error.reason) (\(error.code.rawValue))"
            }
        }
        #expect(outcomes == ["f.heic: not a regular file: a FIFO (not-a-regular-file)",
                             "pipe: not a regular file: a FIFO (not-a-regular-file)",
                             "s.heic: not a regular file: a socket (not-a-regular-file)",
                             "z.heic: not a regular file: a symlink to a character device (not-a-regular-file)",
                             "x/IMG_1.HEIC"])
    }
}
