/// What may be inserted into a source XMP packet, judged from its bytes alone.
///
/// XMP in JPEG must be UTF-8 (XMP Specification Part 3, §1.1.3), but HEIF writers do
/// not always comply, and the packet is passed through as it is. Inserting ASCII is safe
/// in every ASCII-compatible encoding (UTF-8, Latin-1, Windows-1252, …); in UTF-16 or
/// UTF-32 it would corrupt the packet.
enum XMPTextEncoding: Equatable {
    /// Valid UTF-8: inserted text is written as UTF-8.
    case utf8
    /// ASCII-compatible but not UTF-8 (e.g. Latin-1): inserted text is ASCII, with every
    /// other character written as a numeric character reference (`&#xE9;`).
    case asciiCompatible
    /// UTF-16 or UTF-32 (a byte-order mark, or NUL bytes before the end): nothing is inserted.
    case wide

    init(of packet: [UInt8]) {
        if Self.isWide(packet) {
            self = .wide
        } else {
            self = Self.isValidUTF8(packet) ? .utf8 : .asciiCompatible
        }
    }

    /// A UTF-16/UTF-32 byte-order mark at the start, or a NUL byte followed by anything
    /// but more NULs (XML forbids U+0000, so in an ASCII-compatible encoding NULs can
    /// only be a terminator).
    static func isWide(_ packet: [UInt8]) -> Bool {
        if packet.starts(with: [0xFE, 0xFF]) || packet.starts(with: [0xFF, 0xFE]) || packet.starts(with: [0, 0, 0xFE, 0xFF]) {
            return true
        }
        guard let nul = packet.firstIndex(of: 0) else { return false }
        return packet[nul...].contains { $0 != 0 }
    }

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }
}
