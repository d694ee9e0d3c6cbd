import H2JState
import H2JSupport

/// `heic2jpg status --html FILE`: what the states record as one self-contained page, for
/// an archive's owner to see at a glance. Sources by status, and each run's counts as an
/// inline SVG chart; failures grouped by code, with reasons and paths; the sources a
/// hand-off kept, and why; the last run's throughput. No script, font, style sheet or
/// image comes from anywhere: a Content-Security-Policy forbids every fetch.
enum StatusPage {
    /// Runs the chart shows, newest last.
    static let runsCharted = 30
    /// Rows listed per failure code and for kept sources (the JSON form lists them all).
    static let rowsShown = 200

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#1b1b1b}
        h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
        table{border-collapse:collapse}td,th{padding:.2em .8em;text-align:left;border-bottom:1px solid #eee;vertical-align:top}
        td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.92em}
        .ok{color:#1a7f37}.bad{color:#b3261e}.warn{color:#9a6700}summary{cursor:pointer}
        """

    static func html(_ report: StateReport, states: [String]) -> String {
        let total = report.counts.values.reduce(0, +)
        var page = HTMLText()
        page.raw(HTMLText.head(title: "heic2jpg status", policy: "default-src 'none'; style-src 'unsafe-inline'; img-src data:", style: style))
        page.element("h1", "heic2jpg status")
        let underWay = report.stoppedRuns.filter(RunUnderWay.check).map { "\($0.state) #\($0.id) (pid \($0.pid))" }
        page.element("p", "States: " + states.joined(separator: ", ") + ". " + (report.isComplete ? "Every source has been met." : "Sources may remain that no run met.")
                     + (underWay.isEmpty ? "" : " Under way now: " + underWay.joined(separator: ", ") + "."),
                     class: report.isComplete ? "ok" : "warn")
        page.element("h2", "Sources by status")
        page.raw("<table><tr><th>status</th><th>sources</th></tr>")
        for (status, count) in report.counts.sorted(by: { $0.value > $1.value }) {
            page.raw("<tr><td>")
            page.text(status)
            page.raw("</td><td class=\"n\">\(count)</td></tr>")
        }
        page.raw("<tr><th>total</th><th class=\"n\">\(total)</th></tr></table>")
        page.element("p", "Sources \(StatusCommand.megabytes(report.sourceBytes)); \(report.outputs) outputs, \(StatusCommand.megabytes(report.outputBytes)).")
        page.element("h2", "Runs")
        page.raw(runChart(Array(report.runs.prefix(runsCharted).reversed())))
        if let throughput = lastThroughput(report) { page.element("p", throughput) }
        page.element("h2", "Failures: \(report.failures.count)")
        for (code, failures) in Dictionary(grouping: report.failures, by: \.code).sorted(by: { $0.value.count > $1.value.count }) {
            page.raw(report.failures.count <= 20 ? "<details open><summary>" : "<details><summary>")
            page.element("code", code)
            page.text(": \(failures.count)")
            page.raw("</summary><table>")
            for failure in failures.prefix(rowsShown) { page.row([failure.source, failure.reason]) }
            if failures.count > rowsShown { page.row(["… \(failures.count - rowsShown) more (status --json lists all)", ""]) }
            page.raw("</table></details>")
        }
        page.element("h2", "Kept and changed sources: \(report.kept.count)")
        if !report.kept.isEmpty {
            page.raw("<table><tr><th>source</th><th>why it was kept</th></tr>")
            for kept in report.kept.prefix(rowsShown) { page.row([kept.source, kept.reason]) }
            page.raw("</table>")
        }
        page.element("h2", "Handed off: \(report.handOffs.count)")
        page.raw("</body></html>\n")
        return page.markup
    }

    /// One stacked bar per run: converted, updated, skipped and failed, each coloured.
    static func runChart(_ runs: [StateReport.Run]) -> String {
        guard !runs.isEmpty else { return "<p>No run recorded.</p>" }
        let parts: [(label: String, colour: String, count: (StateReport.Run) -> Int)] = [
            ("converted", "#2da44e", \.converted), ("updated", "#54aeff", \.updated),
            ("skipped", "#bbbbbb", \.skipped), ("failed", "#cf222e", \.failed),
        ]
        let largest = max(1, runs.map { run in parts.reduce(0) { $0 + $1.count(run) } }.max() ?? 1)
        let (barWidth, height, top) = (24, 160, 10)
        let width = max(runs.count * (barWidth + 8) + 60, 50 + 4 * 90)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height + top + 40)\" role=\"img\" aria-label=\"sources per run\">"
        for (index, run) in runs.enumerated() {
            var y = top + height
            let x = 50 + index * (barWidth + 8)
            for part in parts {
                let value = part.count(run)
                guard value > 0 else { continue }
                let h = max(1, value * height / largest)
                y -= h
                svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(barWidth)\" height=\"\(h)\" fill=\"\(part.colour)\"><title>run #\(run.id): \(value) \(part.label)</title></rect>"
            }
            svg += "<text x=\"\(x + barWidth / 2)\" y=\"\(top + height + 14)\" font-size=\"10\" text-anchor=\"middle\">#\(run.id)</text>"
        }
        svg += "<text x=\"0\" y=\"\(top + 10)\" font-size=\"10\">\(largest)</text><text x=\"0\" y=\"\(top + height)\" font-size=\"10\">0</text>"
        for (index, part) in parts.enumerated() {
            let x = 50 + index * 90
            svg += "<rect x=\"\(x)\" y=\"\(top + height + 24)\" width=\"10\" height=\"10\" fill=\"\(part.colour)\"/>"
                + "<text x=\"\(x + 14)\" y=\"\(top + height + 33)\" font-size=\"11\">\(part.label)</text>"
        }
        return svg + "</svg>"
    }

    /// The newest finished run's throughput: the sources it met per second, and what it
    /// did with them.
    static func lastThroughput(_ report: StateReport) -> String? {
        guard let run = report.runs.first(where: { $0.finishedNanoseconds != nil }), let finished = run.finishedNanoseconds else { return nil }
        let seconds = Double(finished - run.startedNanoseconds) / 1e9
        let met = run.converted + run.updated + run.skipped + run.failed
        let rate = seconds > 0 ? RunSummary.format(Double(met) / seconds, digits: 1) : "-"
        return "Last run: #\(run.id) on \(run.host), \(met) sources in \(RunSummary.format(seconds, digits: 2)) s (\(rate) per second): "
            + "\(run.converted) converted, \(run.updated) updated, \(run.skipped) skipped, \(run.failed) failed; "
            + (run.exitCode.map { "exit \($0)" } ?? "unfinished") + "."
    }
}
