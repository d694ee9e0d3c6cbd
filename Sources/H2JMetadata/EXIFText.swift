/// Locale-independent number formatting for EXIF warnings ("192,182", "0112").
package enum EXIFText {
    /// `n` in decimal with comma thousands separators, e.g. 192182 → "192,182".
    package static func bytes(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }

    /// A tag number as four upper-case hex digits, e.g. 0x112 → "0112".
    static func hex(_ tag: UInt16) -> String {
        let s = String(tag, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
