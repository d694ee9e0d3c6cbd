/// The text of an XML attribute value or element content, as a reader sees it.
enum XMLText {
    /// `bytes` (UTF-8, repaired when invalid) with the five predefined entities and
    /// numeric character references (`&#233;`, `&#xE9;`) replaced by what they stand for
    /// (XML 1.0 §4.1, §4.6). A reference that is not well formed, or names no Unicode
    /// scalar, is kept as written.
    static func decoding(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            // Names and numbers are short; a reference longer than this is not one.
            guard let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";"),
                  let scalar = character(named: rest[afterAmpersand..<semicolon]) else {
                out += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            out.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    /// What `&name;` stands for, or nil.
    private static func character(named name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
