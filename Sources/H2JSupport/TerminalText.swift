#if canImport(Glibc)
import Glibc
#endif

/// Text for one terminal line: how many columns a string takes, and how to cut it to a
/// width, so that a line rewritten in place never wraps.
///
/// Widths follow the common terminal rule: combining marks and zero-width characters take
/// none, East Asian wide and fullwidth characters and emoji two, everything else one.
/// Control characters and the `PathBytes` escapes of bytes that are not UTF-8 are shown
/// as `?`, one column: a file name can never move the cursor.
package enum TerminalText {
    /// The terminal's width in columns for `fd`, or nil when it is not a terminal (or says 0).
    package static func columns(of fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `text` with anything that could move the cursor replaced by `?`.
    package static func printable(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(isControl(scalar) || PathBytes.isEscape(scalar) ? "?" : scalar)
        }
        return String(out)
    }

    /// Columns `text` takes (after `printable`).
    package static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// `text`, cut to at most `columns`: kept whole when it fits; otherwise its end, after
    /// an ellipsis (the end of a path names the file). Empty when `columns` < 1.
    package static func keepingEnd(_ text: String, columns: Int) -> String {
        let text = printable(text)
        guard width(text) > columns else { return text }
        guard columns >= 1 else { return "" }
        var kept: [Unicode.Scalar] = []
        var used = 1  // the ellipsis
        for scalar in text.unicodeScalars.reversed() {
            let w = width(of: scalar)
            guard used + w <= columns else { break }
            used += w
            kept.append(scalar)
        }
        var out = String.UnicodeScalarView()
        out.append("…")
        out.append(contentsOf: kept.reversed())
        return String(out)
    }

    /// `text`, cut to at most `columns` from its start (no ellipsis).
    package static func keepingStart(_ text: String, columns: Int) -> String {
        var out = String.UnicodeScalarView()
        var used = 0
        for scalar in printable(text).unicodeScalars {
            let w = width(of: scalar)
            guard used + w <= columns else { break }
            used += w
            out.append(scalar)
        }
        return String(out)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if isControl(scalar) || PathBytes.isEscape(scalar) { return 1 }  // shown as `?`
        if (0x0300...0x036F).contains(v) || (0x200B...0x200F).contains(v) || (0xFE00...0xFE0F).contains(v)
            || (0x1AB0...0x1AFF).contains(v) || (0x20D0...0x20FF).contains(v) || v == 0xFEFF { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v) { return 2 }
        return 1
    }
}
