/// Bounds-checked reads of big- or little-endian integers from untrusted bytes.
///
/// Invariant: no method traps, whatever the offsets and lengths. Every read either
/// returns a value that lies wholly inside `bytes` or returns `nil`. Offsets are `Int`
/// and every sum is overflow-checked, so hostile 64-bit lengths cannot wrap around.
package struct ByteReader: Sendable {
    /// The bytes being read; indices are always 0-based.
    package let bytes: [UInt8]
    /// Byte order of multi-byte reads.
    package var bigEndian: Bool

    package init(_ bytes: [UInt8], bigEndian: Bool = true) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    package var count: Int { bytes.count }

    /// True when `length` bytes starting at `offset` lie inside the buffer.
    package func contains(offset: Int, length: Int) -> Bool {
        guard offset >= 0, length >= 0 else { return false }
        let (end, overflow) = offset.addingReportingOverflow(length)
        return !overflow && end <= bytes.count
    }

    package func u8(_ offset: Int) -> UInt8? {
        contains(offset: offset, length: 1) ? bytes[offset] : nil
    }

    package func u16(_ offset: Int) -> UInt16? {
        guard contains(offset: offset, length: 2) else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    package func u32(_ offset: Int) -> UInt32? {
        guard contains(offset: offset, length: 4) else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[offset + (bigEndian ? i : 3 - i)])
            value = value << 8 | byte
        }
        return value
    }

    package func u64(_ offset: Int) -> UInt64? {
        guard contains(offset: offset, length: 8) else { return nil }
        var value: UInt64 = 0
        for i in 0..<8 {
            let byte = UInt64(bytes[offset + (bigEndian ? i : 7 - i)])
            value = value << 8 | byte
        }
        return value
    }

    /// A copy of `length` bytes at `offset`, or nil when any of them is out of range.
    package func slice(_ offset: Int, _ length: Int) -> [UInt8]? {
        guard contains(offset: offset, length: length) else { return nil }
        return Array(bytes[offset..<(offset + length)])
    }

    /// The four bytes at `offset` as an ASCII four-character code such as `ftyp`.
    package func fourCC(_ offset: Int) -> String? {
        guard let raw = slice(offset, 4) else { return nil }
        return String(decoding: raw.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
