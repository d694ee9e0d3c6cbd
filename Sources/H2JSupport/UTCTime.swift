#if canImport(Glibc)
import Glibc
#endif

extension POSIX {
    /// Now in UTC: ISO 8601 (`2026-12-01T16:20:00Z`) for people and reports, or compact
    /// (`20261201T162000`) for file names.
    package static func utcTime(compact: Bool = false) -> String {
        var seconds = time(nil)
        return utcTime(seconds: &seconds, compact: compact)
    }

    /// `seconds` since 1970 in UTC, as `utcTime()` writes it.
    package static func utcTime(seconds: inout time_t, compact: Bool = false) -> String {
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let date = [String(parts.tm_year + 1900), two(parts.tm_mon + 1), two(parts.tm_mday)]
        let clock = [two(parts.tm_hour), two(parts.tm_min), two(parts.tm_sec)]
        return compact ? date.joined() + "T" + clock.joined()
            : date.joined(separator: "-") + "T" + clock.joined(separator: ":") + "Z"
    }
}

extension POSIX {
    /// `nanoseconds` since 1970 in UTC, to the nanosecond: `2024-05-17T14:23:09.123456789Z`.
    package static func utcTime(nanoseconds: Int) -> String {
        let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        var seconds = time_t(remainder < 0 ? quotient - 1 : quotient)
        let fraction = String(remainder < 0 ? remainder + 1_000_000_000 : remainder)
        return String(utcTime(seconds: &seconds).dropLast()) + "." + String(repeating: "0", count: 9 - fraction.count)
            + fraction + "Z"
    }
}

extension timespec {
    /// Nanoseconds since 1970, as the state and the report record times.
    package var nanoseconds: Int { Int(tv_sec) * 1_000_000_000 + Int(tv_nsec) }
}

extension String {
    /// Without white space at either end.
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
