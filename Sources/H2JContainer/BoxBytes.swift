/// Writes ISO-BMFF boxes for the headers the container synthesizes (a `mini` file's
/// equivalent `ftyp` and `meta`): big-endian fields and box framing.
///
/// Invariant: callers pass values that fit their fields (the boxes built are a few MB
/// at most, and wider values go in `u64`); a wider value is truncated, never trapped on.
enum BoxBytes {
    static func u16(_ value: Int) -> [UInt8] { bigEndian(value, bytes: 2) }
    static func u32(_ value: Int) -> [UInt8] { bigEndian(value, bytes: 4) }
    static func u64(_ value: Int) -> [UInt8] { bigEndian(value, bytes: 8) }

    private static func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * (bytes - 1 - $0))) }
    }

    /// A four-character code's bytes (the codes used here are ASCII).
    static func fourCC(_ code: String) -> [UInt8] { Array(code.utf8.prefix(4)) }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(8 + payload.count) + fourCC(type) + payload
    }

    /// A FullBox: version and 24-bit flags before the payload.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(u32(flags).dropFirst()) + payload)
    }

    /// A null-terminated UTF-8 string, as `infe` and `auxC` store names and URNs.
    static func cString(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
}
