import H2JSupport

/// Bounds-checked in-place writes of TIFF integers into a byte buffer.
///
/// Invariant: a write either lands wholly inside the buffer or changes nothing and
/// returns false. Nothing is ever inserted or removed.
enum TIFFPatching {
    @discardableResult
    static func put16(_ value: UInt16, at offset: Int, in bytes: inout [UInt8], bigEndian: Bool) -> Bool {
        guard ByteReader(bytes).contains(offset: offset, length: 2) else { return false }
        let hi = UInt8(value >> 8), lo = UInt8(value & 0xFF)
        bytes[offset] = bigEndian ? hi : lo
        bytes[offset + 1] = bigEndian ? lo : hi
        return true
    }

    @discardableResult
    static func put32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8], bigEndian: Bool) -> Bool {
        guard ByteReader(bytes).contains(offset: offset, length: 4) else { return false }
        for i in 0..<4 {
            let shift = UInt32(bigEndian ? 24 - 8 * i : 8 * i)
            bytes[offset + i] = UInt8((value >> shift) & 0xFF)
        }
        return true
    }

    /// Rewrites the 12-byte entry at `entryOffset` (tag kept) as `type` (SHORT or LONG),
    /// count 1, holding `value` inline. A SHORT is left-justified in the value field and
    /// the two spare bytes are zeroed, as TIFF requires. Any other type is refused.
    @discardableResult
    static func rewriteEntry(at entryOffset: Int, type: UInt16, value: UInt32,
                             in bytes: inout [UInt8], bigEndian: Bool) -> Bool {
        guard type == TIFFFieldType.short || type == TIFFFieldType.long,
              ByteReader(bytes).contains(offset: entryOffset, length: 12) else { return false }
        put16(type, at: entryOffset + 2, in: &bytes, bigEndian: bigEndian)
        put32(1, at: entryOffset + 4, in: &bytes, bigEndian: bigEndian)
        if type == TIFFFieldType.short {
            put16(UInt16(truncatingIfNeeded: value), at: entryOffset + 8, in: &bytes, bigEndian: bigEndian)
            put16(0, at: entryOffset + 10, in: &bytes, bigEndian: bigEndian)
        } else {
            put32(value, at: entryOffset + 8, in: &bytes, bigEndian: bigEndian)
        }
        return true
    }
}
