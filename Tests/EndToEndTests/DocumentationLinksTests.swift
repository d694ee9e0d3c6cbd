import Foundation
import Testing

/// Every link in README.md, ARCHITECTURE.md and docs/ resolves: a relative path to a file
/// that exists, and an anchor to a heading of that file (GitHub's slugs). Links to the web
/// are not fetched.
@Suite("Documentation: every link resolves")
struct DocumentationLinksTests {
    static var documents: [String] {
        let root = Tool.packageRoot.path
        var found = ["README.md", "ARCHITECTURE.md"].map { root + "/" + $0 }
        if let walker = FileManager.default.enumerator(atPath: root + "/docs") {
            for case let path as String in walker where path.hasSuffix(".md") { found.append(root + "/docs/" + path) }
        }
        return found.sorted()
    }

    /// The targets of a Markdown text's inline links, outside code blocks and code spans.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence else { continue }
            let prose = line.replacingOccurrences(of: "`[^`]*`", with: "", options: .regularExpression)
            let regex = try! NSRegularExpression(pattern: "\\]\\(([^) ]+)\\)")
            for match in regex.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)) {
                if let range = Range(match.range(at: 1), in: prose) { targets.append(String(prose[range])) }
            }
        }
        return targets
    }

    /// GitHub's anchors of a Markdown text's headings: lowercased, punctuation but `-` and
    /// `_` dropped, spaces to hyphens, a repeated one suffixed `-1`, `-2`, ….
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors = Set<String>()
        var inFence = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(title.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            }.map(Character.init)).replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
            seen[slug] = count + 1
        }
        return anchors
    }

    /// What is wrong with each link of `text` (a document at `path`): a missing file or heading.
    static func problems(_ text: String, at path: String) -> [String] {
        let directory = (path as NSString).deletingLastPathComponent
        var problems: [String] = []
        for link in links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? path : (directory as NSString).appendingPathComponent(parts[0])
            guard FileManager.default.fileExists(atPath: file) else {
                problems.append("\(link): no file \(file)")
                continue
            }
            if parts.count == 2, file.hasSuffix(".md") {
                let target = file == path ? text : (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                if !anchors(in: target).contains(parts[1]) { problems.append("\(link): no heading '\(parts[1])' in \(file)") }
            }
        }
        return problems
    }

    @Test("Each document's links resolve to a file, and anchors to a heading")
    func links() throws {
        for path in Self.documents {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(Self.problems(text, at: path).isEmpty, "\(path): \(Self.problems(text, at: path))")
        }
    }

    @Test("The checker finds a missing heading and a missing file, and takes GitHub's slugs")
    func checkerCanFail() {
        let text = "## Resizing: `--max-size` and `--thumbnail`\n## Notes\n## Notes\n[a](#resizing---max-size-and---thumbnail) [b](#notes-1) "
            + "[c](#nowhere) [d](docs/no-such-file.md) [e](https://example.org/x)"
        let problems = Self.problems(text, at: Tool.packageRoot.path + "/README.md")
        #expect(problems.count == 2 && problems[0].hasPrefix("#nowhere") && problems[1].hasPrefix("docs/no-such-file.md"), "\(problems)")
    }
}
