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

extension String {
    /// Without white space at either end.
    package var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
