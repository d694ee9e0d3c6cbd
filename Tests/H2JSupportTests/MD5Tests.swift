import Foundation
import H2JTestSupport
import Testing
@testable import H2JSupport

@Suite("MD5")
struct MD5Tests {
    @Test("RFC 1321 test suite (appendix A.5)", arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfcVectors(message: String, digest: String) {
        #expect(MD5.hexDigest(Array(message.utf8)) == digest)
        #expect(MD5.hexDigest(Array(message.utf8), uppercase: true) == digest.uppercased())
        #expect(MD5.digest(Array(message.utf8)).count == 16)
    }

    /// Lengths around the padding boundaries (55/56/63/64 bytes mod 64), plus larger ones.
    @Test("Random data agrees with md5sum")
    func randomAgainstMD5Sum() throws {
        let directory = TemporaryDirectory()
        var generator = SeededGenerator("MD5Tests/randomAgainstMD5Sum")
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 65_458, 70_001, 1 << 20] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let path = directory.file("r\(length)", data)
            let output = String(decoding: try HEVCReference.run("md5sum", [path]), as: UTF8.self)
            #expect(MD5.hexDigest(data) == String(output.prefix(32)), "length \(length), seed \(generator.seed)")
        }
    }
}
