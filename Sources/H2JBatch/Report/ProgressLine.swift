import H2JJob
import H2JSupport

/// The line a run keeps rewriting on a terminal: how far it is, how fast it goes, when it
/// should end, what failed, and the file at hand, e.g.
///
///     [ 42%] 4210/10000 · 12.3 images/s · ETA 7m51s · 3 failed · d0042/IMG_4210.HEIC
///
/// A total known only from the state database (the walk still counting) is marked `~`;
/// with no total there is no percent and no ETA. The line is cut to the terminal's width
/// minus one column, so it never wraps: the file name shrinks first (keeping its end),
/// then the rate and the ETA go; the counts and the failures stay.
struct ProgressLine: Equatable {
    /// Results so far (every status).
    var done = 0
    /// What the run will report in all, once known.
    var total: Int?
    /// `total` is the state's count of recorded sources, not the walk's.
    var totalIsEstimate = false
    /// Images written so far (converted, updated, copied).
    var written = 0
    var failed = 0
    /// Seconds since the run started.
    var elapsed = 0.0
    /// The file most recently started or finished.
    var current: String?

    /// The line for a terminal `columns` wide.
    func text(columns: Int) -> String {
        let budget = max(columns - 1, 1)
        let tilde = totalIsEstimate ? "~" : ""
        // Parts in the order shown, with the order they are dropped in when space runs out.
        var parts: [(text: String, dropOrder: Int)] = []
        if let total, total > 0 {
            let percent = min(100, done * 100 / total)
            parts.append(((tilde.isEmpty ? "[\(Self.padded(percent))%]" : "[~\(percent)%]") + " \(done)/\(tilde)\(total)", Int.max))
        } else {
            parts.append(("\(done) done", Int.max))
        }
        parts.append(("\(RunSummary.format(elapsed > 0 ? Double(written) / elapsed : 0, digits: 1)) images/s", 0))
        if let eta { parts.append(("ETA \(Self.duration(eta))", 1)) }
        parts.append(("\(failed) failed", Int.max))
        let separator = " · "
        func joined() -> String { parts.map(\.text).joined(separator: separator) }
        while TerminalText.width(joined()) > budget, let drop = parts.indices.filter({ parts[$0].dropOrder != Int.max })
            .min(by: { parts[$0].dropOrder < parts[$1].dropOrder }) {
            parts.remove(at: drop)
        }
        var line = joined()
        let room = budget - TerminalText.width(line) - TerminalText.width(separator)
        if let current, room >= 8 { line += separator + TerminalText.keepingEnd(current, columns: room) }
        return TerminalText.keepingStart(line, columns: budget)
    }

    /// Seconds left at the rate results have come so far; nil before there is a rate.
    var eta: Double? {
        guard let total, done > 0, elapsed >= 1, total > done else { return nil }
        return Double(total - done) * elapsed / Double(done)
    }

    /// 42s, 7m51s, 3h07m.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m\(two(s % 60))s" }
        return "\(s / 3600)h\(two(s % 3600 / 60))m"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    private static func padded(_ percent: Int) -> String { String(repeating: " ", count: 3 - String(percent).count) + String(percent) }
}
