import H2JSupport

/// What an ICC profile says about itself: its version and its description, the name
/// colour-managed applications show ("Display P3", "sRGB IEC61966-2.1").
///
/// The description is the `desc` tag, of type `textDescriptionType` in ICC v2
/// (ICC.1:2001-04: an ASCII part, then a Unicode part) or `multiLocalizedUnicodeType`
/// (`mluc`) in ICC v4 (ICC.1:2010: UTF-16BE records per language); either type is read whatever the header's version says, as some v2
/// profiles carry `mluc`.
///
/// Invariant: never traps; reads only inside the profile and inside the tag's own
/// declared extent.
package struct ICCProfileInfo: Sendable, Equatable {
    /// `major.minor`, e.g. `4.0`, `2.1`; nil when the header is cut short.
    package let version: String?
    /// The `desc` text, trimmed; nil when absent, unreadable or empty.
    package let description: String?
    /// Size of the whole profile.
    package let bytes: Int

    package init(profile: [UInt8]) {
        let reader = ByteReader(profile)
        bytes = profile.count
        version = reader.u8(8).flatMap { major in reader.u8(9).map { "\(major).\($0 >> 4)" } }
        description = Self.tag("desc", in: reader).flatMap { Self.text(reader, $0) }
    }

    /// The extent of the first tag with `signature` in the tag table, clipped to the profile.
    static func tag(_ signature: String, in reader: ByteReader) -> Range<Int>? {
        guard let count = reader.u32(128) else { return nil }
        // The table cannot hold more entries than the profile has room for.
        for index in 0..<min(Int(count), reader.count / 12) {
            let entry = 132 + 12 * index
            guard let name = reader.fourCC(entry), let offset = reader.u32(entry + 4), let size = reader.u32(entry + 8) else { return nil }
            guard name == signature else { continue }
            let start = Int(offset), end = min(start + Int(size), reader.count)
            return start < end ? start..<end : nil
        }
        return nil
    }

    /// The text of a `desc` (v2) or `mluc` (v4) tag occupying `extent`.
    static func text(_ profile: ByteReader, _ extent: Range<Int>) -> String? {
        guard let bytes = profile.slice(extent.lowerBound, extent.count) else { return nil }
        let tag = ByteReader(bytes)
        let text: String?
        switch tag.fourCC(0) {
        case "desc": text = textDescription(tag)
        case "mluc": text = multiLocalized(tag)
        default: text = nil
        }
        let trimmed = text.map(trimming)
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    /// `textDescriptionType`: ASCII count (NUL included) and text at 8; when that is
    /// empty, the Unicode part after it (language code, character count, UTF-16BE).
    private static func textDescription(_ tag: ByteReader) -> String? {
        guard let asciiCount = tag.u32(8) else { return nil }
        let ascii = tag.slice(12, min(Int(asciiCount), tag.count - 12)) ?? []
        let text = String(decoding: ascii.prefix { $0 != 0 }, as: UTF8.self)
        if !trimming(text).isEmpty { return text }
        let unicodeAt = 12 + min(Int(asciiCount), tag.count)
        guard let characters = tag.u32(unicodeAt + 4) else { return nil }
        return utf16(tag, from: unicodeAt + 8, bytes: min(Int(characters), tag.count) * 2)
    }

    /// `multiLocalizedUnicodeType`: the en-US record, else the first English one, else the first.
    private static func multiLocalized(_ tag: ByteReader) -> String? {
        guard let count = tag.u32(8), let recordSize = tag.u32(12), recordSize >= 12 else { return nil }
        var records: [(language: String, country: String, length: Int, offset: Int)] = []
        for index in 0..<min(Int(count), tag.count / 12) {
            let at = 16 + index * Int(recordSize)
            guard let language = tag.slice(at, 2), let country = tag.slice(at + 2, 2),
                  let length = tag.u32(at + 4), let offset = tag.u32(at + 8) else { break }
            records.append((String(decoding: language, as: UTF8.self), String(decoding: country, as: UTF8.self), Int(length), Int(offset)))
        }
        let chosen = records.first { $0.language == "en" && $0.country == "US" }
            ?? records.first { $0.language == "en" } ?? records.first
        return chosen.flatMap { utf16(tag, from: $0.offset, bytes: $0.length) }
    }

    /// `bytes` bytes of UTF-16BE at `start`, or as many as the tag holds; repaired, never trapped on.
    private static func utf16(_ tag: ByteReader, from start: Int, bytes: Int) -> String? {
        guard start >= 0, start < tag.count else { return nil }
        let available = min(bytes, tag.count - start) / 2
        var units: [UInt16] = []
        units.reserveCapacity(available)
        for index in 0..<available {
            guard let unit = tag.u16(start + 2 * index) else { break }
            units.append(unit)
        }
        return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
    }

    /// Without leading and trailing white space and NULs.
    private static func trimming(_ text: String) -> String {
        let isPadding: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        return String(text.drop(while: isPadding).reversed().drop(while: isPadding).reversed())
    }
}
