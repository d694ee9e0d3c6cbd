import Foundation
import H2JTestSupport
import Testing

/// `status --html`: one self-contained page of a migration's state, rendered by headless
/// Chromium with no console message and no fetch, whose text holds what `--json` says.
@Suite("End to end: the status page in a browser")
struct StatusPageEndToEndTests {
    @Test("The page of a state (Samples, and a corpus photo when there is one) with conversions, a failure and two runs: rendered, silent, and holding the JSON's counts, failures and runs")
    func statusPage() throws {
        let scratch = TemporaryDirectory()
        let photos = ["monochrome.heic", "grid-rotated-mirrored.heic", "alpha-transparent.heic"].map { Tool.samples + "/" + $0 }
            + (Tool.corpus.map { [$0 + "/iphone/iphone13pro-depth-gainmap.heic"] } ?? [])
        for photo in photos {
            _ = scratch.file("in/" + (photo as NSString).lastPathComponent, [UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))))
        }
        // One flipped bit ends a tile's slice early: a decode-failed photo, its reason in the page.
        var broken = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/grid-rotated-mirrored.heic")))
        broken[27419] ^= 0x08
        _ = scratch.file("in/<broken & odd>.heic", broken)
        for _ in 0..<2 { try Tool.run(["--quiet", "--state", scratch.sub("s.db"), "-o", scratch.sub("out"), scratch.sub("in")]) }
        let page = scratch.sub("status.html")
        let status = try Tool.run(["status", "--json", "--state", scratch.sub("s.db"), "--html", page])
        #expect(status.status == 1, "a failure is recorded: \(status.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])

        let rendered = try HeadlessChromium.render(page, screenshot: HeadlessChromium.screenshot("status-page.png"))
        print("status page: \((try? FileManager.default.attributesOfItem(atPath: page)[.size]) ?? 0) bytes, rendered in \(String(format: "%.2f", rendered.seconds)) s")
        #expect(rendered.console.isEmpty, "no console message, no refused fetch: \(rendered.console)")
        let png = try Data(contentsOf: URL(fileURLWithPath: rendered.screenshot))
        #expect(png.count > 10_000 && png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]), "a screenshot: \(png.count) bytes")
        let text = HeadlessChromium.text(of: rendered.dom)
        for (status, count) in try #require(json["sources"] as? [String: Int]) {
            #expect(text.contains("\(status) \(count)"), "\(status) \(count) in: \(text)")
        }
        for failure in try #require(json["failures"] as? [[String: Any]]) {
            for key in ["source", "errorCode", "reason"] {
                let value = try #require(failure[key] as? String)
                #expect(text.contains(value), "failure \(key) '\(value)' in: \(text)")
            }
        }
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.count == 2 && runs.allSatisfy { text.contains("#\($0["id"] as? Int ?? 0)") }, "\(text)")
        #expect(text.contains("Last run: #2"), "the last run's throughput: \(text)")
    }

    @Test("The console check catches a fetch the page's policy refuses (so an empty console means something)")
    func consoleCheckCanFail() throws {
        let scratch = TemporaryDirectory()
        let page = scratch.file("bad.html", Array("""
            <!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>
            <body><img src="http://127.0.0.1:9/x.png">x</body></html>
            """.utf8))
        let rendered = try HeadlessChromium.render(page, screenshot: scratch.sub("bad.png"))
        #expect(!rendered.console.isEmpty, "the refused image is a console message")
    }
}
