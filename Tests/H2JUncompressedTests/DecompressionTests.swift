import H2JBrotli
import H2JTestSupport
import H2JZlib
import Testing

/// zlib's inflate and libbrotli's decoder as the `unci` decoder uses them: exact output,
/// damaged streams refused, and never more than the layout's size produced.
@Suite("Generic decompression (zlib, Brotli)")
struct DecompressionTests {
    /// zlib (level 9) of 100,000 zero bytes: 120 bytes, mostly zeros.
    static let zlibBomb: [UInt8] = [0x78, 0xDA, 0xED, 0xC1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xC2, 0xA0, 0xF5, 0x4F, 0x6D, 0x0D, 0x0F, 0xA0]
        + [UInt8](repeating: 0, count: 96) + [0x80, 0x57, 0x03, 0x86, 0xAF, 0x00, 0x01]
    /// Raw deflate (level 9) of the bytes 0…15.
    static let deflate: [UInt8] = [0x63, 0x60, 0x64, 0x62, 0x66, 0x61, 0x65, 0x63, 0xE7, 0xE0, 0xE4, 0xE2, 0xE6, 0xE1, 0xE5, 0xE3, 0x07, 0x00]
    /// Brotli (quality 11) of 100,000 zero bytes, and of the 16 bytes 7·i.
    static let brotliBomb: [UInt8] = [0x5B, 0x9F, 0x86, 0x81, 0x7F, 0x02, 0x20, 0x1E, 0x0B, 0x04, 0xB2, 0xFC, 0x02, 0x00]
    static let brotli: [UInt8] = [0x8B, 0x07, 0x80, 0x00, 0x07, 0x0E, 0x15, 0x1C, 0x23, 0x2A, 0x31, 0x38, 0x3F, 0x46, 0x4D, 0x54,
                                  0x5B, 0x62, 0x69, 0x03]

    @Test("streams inflate exactly, with the cap at their size")
    func exact() throws {
        #expect(try Inflate.inflate(Self.deflate[...], framing: .deflate, maxBytes: 16) == Array(0..<16))
        #expect(try Inflate.inflate(Self.zlibBomb[...], framing: .zlib, maxBytes: 100_000) == [UInt8](repeating: 0, count: 100_000))
        #expect(try Inflate.inflate(UNCI.stored([1, 2, 3], zlib: true)[...], framing: .zlib, maxBytes: 3) == [1, 2, 3])
        #expect(try BrotliDecoding.decompress(Self.brotli[...], maxBytes: 16) == (0..<16).map { UInt8($0 * 7) })
        #expect(try BrotliDecoding.decompress(Self.brotliBomb[...], maxBytes: 100_000).count == 100_000)
    }

    @Test("a stream that would produce more than the layout needs is refused: a decompression bomb")
    func bombs() {
        #expect(throws: InflateError.self) { try Inflate.inflate(Self.zlibBomb[...], framing: .zlib, maxBytes: 99_999) }
        #expect(throws: BrotliError.self) { try BrotliDecoding.decompress(Self.brotliBomb[...], maxBytes: 1000) }
    }

    @Test("truncated, damaged and mislabelled streams throw, whatever the damage")
    func damaged() {
        for cut in 0..<Self.deflate.count {
            #expect(throws: InflateError.self) { try Inflate.inflate(Self.deflate.prefix(cut), framing: .deflate, maxBytes: 16) }
        }
        for cut in 0..<Self.brotli.count {
            #expect(throws: BrotliError.self) { try BrotliDecoding.decompress(Self.brotli.prefix(cut), maxBytes: 16) }
        }
        #expect(throws: InflateError.self) { try Inflate.inflate(Self.deflate[...], framing: .zlib, maxBytes: 16) }
        var random = SeededGenerator("DecompressionTests/damaged")
        for _ in 0..<TestScale.iterations(2000) {
            var zlib = Self.zlibBomb, brotli = Self.brotli
            zlib[Int.random(in: 0..<zlib.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            brotli[Int.random(in: 0..<brotli.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = try? Inflate.inflate(zlib[...], framing: .zlib, maxBytes: 100_000)
            _ = try? BrotliDecoding.decompress(brotli[...], maxBytes: 16)
        }
    }
}
