import Foundation
import H2JTestSupport
import Testing
@testable import H2JDigest
@testable import H2JSupport

@Suite("SHA-256 (libcrypto)")
struct SHA256Tests {
    func hex(_ text: String) -> String { SHA256.hex(SHA256.digest(Array(text.utf8))) }

    @Test("FIPS 180-4 example vectors")
    func vectors() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(SHA256.digest([UInt8](repeating: 0x61, count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("Chunked updates of any size give the one-shot digest")
    func chunking() {
        var generator = SeededGenerator("SHA256Tests/chunking")
        let data = (0..<10_007).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = SHA256.digest(data)
        for chunk in [1, 3, 63, 64, 65, 1000, 4096] {
            var hash = SHA256()
            var at = 0
            while at < data.count {
                hash.update(Array(data[at..<min(at + chunk, data.count)]))
                at += chunk
            }
            #expect(hash.finalize() == whole, "chunk \(chunk), seed \(generator.seed)")
        }
    }

    @Test("A file's digest equals sha256sum's")
    func fileMatchesSha256sum() throws {
        let dir = TemporaryDirectory()
        var generator = SeededGenerator("SHA256Tests/fileMatchesSha256sum")
        // Over two read chunks, not a multiple of 64.
        let data = (0..<(SourceDigest.chunkBytes * 2 + 4321)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = dir.file("data.bin", data)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(try SourceDigest.hex(ofFileAt: path) == String(line.prefix(64)), "seed \(generator.seed)")
        #expect(SourceDigest.hex(of: data) == String(line.prefix(64)), "seed \(generator.seed)")
    }
}
