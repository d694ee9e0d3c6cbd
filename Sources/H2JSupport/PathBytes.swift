/// File names are bytes; Swift strings are Unicode. This is the one lossless mapping
/// between them, so a name that is not valid UTF-8 (`caf\xE9.heic` from a Latin-1
/// camera or archive) is never "repaired" into another name.
///
/// Bytes that form valid UTF-8 become those characters, except that each byte of a
/// character in U+10FF80…U+10FFFF is escaped too; every other byte b (0x80…0xFF, alone
/// or in a broken sequence) becomes the private-use character U+10FF00 + b. Going back,
/// U+10FF80…U+10FFFF become the byte b again and everything else is UTF-8. Both
/// directions are exact inverses: distinct byte names stay distinct strings, and a
/// string made here gives back its very bytes. docs/output.md documents the escape for the
/// report.
package enum PathBytes {
    /// First escape character: U+10FF00 + b stands for the raw byte b (b ≥ 0x80).
    static let escapeBase: UInt32 = 0x10FF00

    /// The string for the bytes of a name or path.
    /// ASCII bytes in contiguous memory (a listing's name, an SQLite column) are read in place, uncopied.
    package static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let ascii = bytes.withContiguousStorageIfAvailable { buffer -> String? in
            var combined: UInt8 = 0
            for byte in buffer { combined |= byte }
            return combined < 0x80 ? String(decoding: buffer, as: UTF8.self) : nil
        }
        if let ascii, let ascii { return ascii }
        return string(Array(bytes))
    }

    /// The string for the bytes of a name or path.
    package static func string(_ raw: [UInt8]) -> String {
        // ASCII, most names: nothing to decide.
        let ascii = raw.withUnsafeBufferPointer { buffer in
            var combined: UInt8 = 0
            for byte in buffer { combined |= byte }
            return combined < 0x80
        }
        if ascii { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte < 0x80 {
                scalars.append(Unicode.Scalar(byte))
                index += 1
                continue
            }
            if let (scalar, length) = decodeOne(raw, at: index), scalar.value < escapeBase + 0x80 {
                scalars.append(scalar)
                index += length
                continue
            }
            // Not UTF-8 (or one of the escape characters themselves): escape this byte.
            scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!)
            index += 1
        }
        return String(scalars)
    }

    /// The string for a NUL-terminated C name (`readdir`, `argv`, `realpath`).
    package static func string(cString: UnsafePointer<CChar>) -> String {
        let length = strlenOf(cString)
        return string(UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: length))
    }

    /// Whether `text`'s UTF-8 is the bytes it stands for: it holds no escape character,
    /// whose UTF-8 starts with 0xF4 (a byte scan, where `hasEscapes` decodes scalars).
    package static func isOwnUTF8(_ text: String) -> Bool {
        !text.utf8.contains(0xF4)
    }

    /// The bytes a string made by `string` came from (any other string: its UTF-8, with
    /// escape characters turned back into their bytes).
    package static func bytes(_ text: String) -> [UInt8] {
        if isOwnUTF8(text) { return Array(text.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Whether `text` holds escaped bytes, that is, names bytes that are not UTF-8.
    package static func hasEscapes(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isEscape)
    }

    /// Whether `scalar` is the escape of a byte.
    package static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF
    }

    /// One well-formed UTF-8 scalar at `index` (shortest form, no surrogates), or nil.
    private static func decodeOne(_ raw: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = raw[index]
        let (length, minimum, initial): (Int, UInt32, UInt32) = switch lead {
        case 0xC2...0xDF: (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (4, 0x10000, UInt32(lead & 0x07))
        default: (0, 0, 0)
        }
        guard length > 0, index + length <= raw.count else { return nil }
        var value = initial
        for next in raw[(index + 1)..<(index + length)] {
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    private static func strlenOf(_ pointer: UnsafePointer<CChar>) -> Int {
        var count = 0
        while pointer[count] != 0 { count += 1 }
        return count
    }
}
