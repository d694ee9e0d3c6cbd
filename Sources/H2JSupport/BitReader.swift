/// Reads bits most-significant first from untrusted bytes, with the Exp-Golomb codes of
/// H.264/H.265 parameter sets.
///
/// Invariant: never traps. Reading past the end returns nil, and so does every later
/// read; Exp-Golomb codes longer than 31 leading zeros are refused, so values fit `Int`.
package struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `count` bits (0…32) as an unsigned value.
    package mutating func bits(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position <= bytes.count * 8 - count else { return nil }
        var value = 0
        for _ in 0..<count {
            let bit = Int(bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | bit
            position += 1
        }
        return value
    }

    package mutating func flag() -> Bool? { bits(1).map { $0 == 1 } }

    /// Skips `count` bits; false when fewer remain.
    package mutating func skip(_ count: Int) -> Bool {
        var left = count
        while left > 0 {
            let chunk = min(32, left)
            guard bits(chunk) != nil else { return false }
            left -= chunk
        }
        return count >= 0
    }

    /// Unsigned Exp-Golomb `ue(v)`.
    package mutating func unsignedGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros < 32 else { return nil }
        }
        guard let suffix = bits(zeros) else { return nil }
        return (1 << zeros) - 1 + suffix
    }

    /// A NAL unit's payload with emulation-prevention bytes (`00 00 03`) removed.
    package static func rbsp(_ nal: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
