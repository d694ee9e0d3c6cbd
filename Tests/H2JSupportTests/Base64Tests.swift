import Foundation
import Testing
@testable import H2JSupport

@Suite("Base64")
struct Base64Tests {
    @Test("RFC 4648's vectors, and Foundation's encoding of every length up to 300 bytes")
    func vectors() {
        for (text, expected) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] {
            #expect(Base64.encoded(Array(text.utf8)) == expected)
        }
        for length in 0...300 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }
            #expect(Base64.encoded(bytes) == Data(bytes).base64EncodedString())
        }
    }
}
