import H2JContainer
import H2JTiles
import Testing

/// The damaged tiles every `TileDecoding` backend is put through: a reference tile whose
/// slice NAL unit has bytes replaced, flipped or cut out (300 tiles), is truncated (100),
/// has a run of zeros (100) or a byte inserted (100), from a fixed seed, so every backend
/// sees the same tiles.
package enum CorruptTiles {
    /// How many tiles of each kind ("mutated", "truncated", "zeroed", "inserted") gave an
    /// error, the unwritten-block error, a picture within 45 dB of the intact tile's, or a
    /// worse one, keyed "KIND: error", "KIND: unwritten", "KIND: picture" and "KIND: wrong". Records an issue for a picture of
    /// another size than the intact tile's or an error that is not a decoding failure.
    package static func outcomes(of decoder: any TileDecoding, _ stream: HEVCReference.Stream) throws -> [String: Int] {
        let units = try HEVCConfiguration.nalUnits(in: stream.data, lengthSize: 4)
        let slice = try #require(units.last)
        #expect(HEVCConfiguration.nalUnitType(Array(stream.data[slice])) ?? 99 < 32, "the last NAL unit is a slice")
        let prefix = Array(stream.data[..<(slice.lowerBound - 4)])
        /// The tile with its slice NAL unit replaced (length prefix recomputed).
        func tile(slice bytes: [UInt8]) -> [UInt8] { prefix + HEVCReference.lengthPrefixed(bytes) }

        var state: UInt64 = 0xD1B5_4A32_D192_ED03
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        let expected = try decoder.decode(stream.configuration, data: stream.data) { "\($0.width)x\($0.height)" }
        let intact = try decoder.decode(stream.configuration, data: stream.data) { HEVCReference.packedPlanes($0) }
        var outcomes: [String: Int] = [:]
        func attempt(_ data: [UInt8], _ kind: String) {
            do {
                let (size, planes) = try decoder.decode(stream.configuration, data: data) { ("\($0.width)x\($0.height)", HEVCReference.packedPlanes($0)) }
                #expect(size == expected)
                let close = planes == intact || HEVCReference.psnr(planes, intact) >= 45
                outcomes[kind + (close ? ": picture" : ": wrong"), default: 0] += 1
            } catch let error as TileDecodingError {
                #expect(error.message.hasPrefix("HEVC decoding failed: ") || error.message == "the tile produced no picture"
                        || error.message.contains("never decoded") || error.message.hasSuffix("which no valid stream does (damaged data)"), "\(error)")
                outcomes[kind + (error.message.contains("never decoded") ? ": unwritten" : ": error"), default: 0] += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        let original = Array(stream.data[slice])
        // Slice data after the 2-byte NAL header and the first bytes of the slice header.
        for _ in 0..<300 {
            var bytes = original
            for _ in 0...random(3) {
                let at = 4 + random(bytes.count - 4)
                switch random(3) {
                case 0: bytes[at] = UInt8(random(256))
                case 1: bytes[at] ^= 1 << UInt8(random(8))
                default: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random(16)))
                }
            }
            attempt(tile(slice: bytes), "mutated")
        }
        for _ in 0..<100 {
            attempt(tile(slice: Array(original.prefix(2 + random(original.count - 12)))), "truncated")
        }
        for _ in 0..<100 {
            var bytes = original
            let at = 4 + random(bytes.count - 4)
            for index in at..<min(bytes.count, at + 1 + random(512)) { bytes[index] = 0 }
            attempt(tile(slice: bytes), "zeroed")
        }
        for _ in 0..<100 {
            var bytes = original
            bytes.insert(UInt8(random(256)), at: 4 + random(bytes.count - 4))
            attempt(tile(slice: bytes), "inserted")
        }
        return outcomes
    }
}
