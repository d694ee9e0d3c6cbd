import Foundation

/// Debian's `chromium`, headless, as a user's browser sees a page: a screenshot, the DOM
/// after rendering, and every console message (a Content-Security-Policy refusal of a
/// fetch is one), from its log on stderr.
enum HeadlessChromium {
    static let binary = "/usr/bin/chromium"

    /// What rendering `page` gave: the screenshot's path, the rendered DOM, the console lines.
    struct Rendered {
        let screenshot: String
        let dom: String
        let console: [String]
        let seconds: Double
    }

    static func render(_ page: String, screenshot: String, width: Int = 1200, height: Int = 1600) throws -> Rendered {
        let common = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                      "--user-data-dir=" + page + ".profile", "--enable-logging=stderr", "--v=0"]
        let started = Date()
        let shot = try Tool.run(common + ["--window-size=\(width),\(height)", "--screenshot=" + screenshot, "file://" + page],
                                executable: binary)
        let seconds = Date().timeIntervalSince(started)
        let dump = try Tool.run(common + ["--dump-dom", "file://" + page], executable: binary)
        let console = (shot.stderr + dump.stderr).split(separator: "\n").map(String.init).filter { $0.contains("CONSOLE") }
        return Rendered(screenshot: screenshot, dom: String(decoding: dump.stdout, as: UTF8.self), console: console, seconds: seconds)
    }

    /// The text a reader sees in `dom`: tags dropped, the five entities undone.
    static func text(of dom: String) -> String {
        var text = dom.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
    }
}
