import H2JTestSupport
import Testing
@testable import H2JContainer

@Suite("HEVC sequence parameter set head")
struct HEVCSequenceParametersTests {
    /// Writes bits MSB first, with Exp-Golomb codes, and inserts emulation prevention.
    struct BitWriter {
        var bits: [Bool] = []
        mutating func put(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
        }
        mutating func golomb(_ value: Int) {
            let code = value + 1
            let length = Int.bitWidth - code.leadingZeroBitCount
            put(0, length - 1)
            put(code, length)
        }
        var nal: [UInt8] {
            var padded = bits + [true]
            while padded.count % 8 != 0 { padded.append(false) }
            var bytes: [UInt8] = []
            for i in stride(from: 0, to: padded.count, by: 8) {
                bytes.append(padded[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
            }
            // Emulation prevention: 00 00 0x (x ≤ 3) gets a 03 inserted.
            var out: [UInt8] = [0x42, 0x01]
            var zeros = 0
            for byte in bytes {
                if zeros >= 2 && byte <= 3 { out.append(3); zeros = 0 }
                out.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return out
        }
    }

    func sps(chroma: Int, width: Int, height: Int, window: (Int, Int, Int, Int)? = nil, luma: Int = 8, chromaDepth: Int = 8,
             subLayers: Int = 0) -> [UInt8] {
        var w = BitWriter()
        w.put(0, 4)                 // sps_video_parameter_set_id
        w.put(subLayers, 3)         // sps_max_sub_layers_minus1
        w.put(1, 1)                 // temporal_id_nesting
        w.put(0x01600000, 32)       // profile space/tier/idc, first compatibility bits: zeros mostly
        w.put(0, 32); w.put(0, 32)  // rest of the 96-bit general profile + level
        for _ in 0..<subLayers { w.put(1, 1); w.put(1, 1) }  // profile and level present
        if subLayers > 0 { w.put(0, 2 * (8 - subLayers)) }
        for _ in 0..<subLayers { w.put(0, 88); w.put(0, 8) }
        w.golomb(0)                 // sps_seq_parameter_set_id
        w.golomb(chroma)
        if chroma == 3 { w.put(0, 1) }
        w.golomb(width)
        w.golomb(height)
        if let window {
            w.put(1, 1)
            [window.0, window.1, window.2, window.3].forEach { w.golomb($0) }
        } else {
            w.put(0, 1)
        }
        w.golomb(luma - 8)
        w.golomb(chromaDepth - 8)
        w.put(0, 40)                // whatever follows
        return w.nal
    }

    @Test("Chroma format, bit depths and the windowed size are read")
    func basics() throws {
        let parsed = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 512, height: 512)))
        #expect(parsed == HEVCSequenceParameters(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, width: 512, height: 512))
        let windowed = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 1088, height: 64, window: (0, 4, 0, 2))))
        #expect(windowed.width == 1080 && windowed.height == 60)
        let mono = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 0, width: 30, height: 100, window: (0, 1, 0, 0), luma: 10)))
        #expect(mono.chromaFormat == 0 && mono.width == 29 && mono.bitDepthLuma == 10)
        let full = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 3, width: 64, height: 48, subLayers: 2)))
        #expect(full.chromaFormat == 3 && full.width == 64)
    }

    @Test("Not an SPS, cut short, or nonsense values give nil, never a trap")
    func refusals() {
        #expect(HEVCSequenceParameters.parse(nal: [0x40, 0x01, 0xFF]) == nil)  // a VPS
        let good = sps(chroma: 1, width: 512, height: 512)
        // The header, the first 8 bits and the 96-bit profile take 15 bytes.
        for length in 0..<15 {
            #expect(HEVCSequenceParameters.parse(nal: Array(good.prefix(length))) == nil, "prefix \(length)")
        }
        #expect(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 16, height: 16, window: (9, 0, 0, 0))) == nil)
        var generator = SeededGenerator("HEVCSequenceParametersTests/refusals")
        for _ in 0..<TestScale.iterations(5000) {
            var bytes = good
            bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = HEVCSequenceParameters.parse(nal: bytes)
            _ = HEVCSequenceParameters.parse(nal: [0x42, 0x01] + (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }
}
