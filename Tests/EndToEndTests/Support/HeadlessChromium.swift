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

    /// `fragment` (without `#`) is added to the page's address.
    /// Where a test keeps its screenshots for people to look at after the run:
    /// `.build/screenshots/NAME`.
    static func screenshot(_ name: String) -> String {
        let directory = Tool.packageRoot.appendingPathComponent(".build/screenshots").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/" + name
    }

    static func render(_ page: String, screenshot: String, width: Int = 1200, height: Int = 1600, fragment: String = "") throws -> Rendered {
        let common = ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                      "--user-data-dir=" + page + ".profile", "--enable-logging=stderr", "--v=0"]
        let started = Date()
        let address = "file://" + page + (fragment.isEmpty ? "" : "#" + fragment)
        let shot = try Tool.run(common + ["--window-size=\(width),\(height)", "--screenshot=" + screenshot, address], executable: binary)
        let seconds = Date().timeIntervalSince(started)
        let dump = try Tool.run(common + ["--dump-dom", address], executable: binary)
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

    /// The attributes of `page` (its source) that name something to fetch: every `src`
    /// and `href` but `data:` URLs and anchors within the page.
    static func fetches(in page: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: "(?:src|href)\\s*=\\s*[\"']?([^\"' >]*)")
        return regex.matches(in: page, range: NSRange(page.startIndex..., in: page)).compactMap { match in
            Range(match.range(at: 1), in: page).map { String(page[$0]) }
        }.filter { !$0.hasPrefix("data:") && !$0.hasPrefix("#") }
    }
}
