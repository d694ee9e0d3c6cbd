import Foundation
import Testing

/// README.md is a front page; the manual is docs/. Every section the README had before the
/// split (issue #34) still has a home there, under the same heading; the quick start the
/// front page keeps (Scripts/fresh-check runs it as printed) reads the same in
/// docs/install.md; and each recipe file is printed once, as it is.
@Suite("Documentation: every section of the old README has a home in docs/")
struct DocumentationHomesTests {
    /// The `##` and `###` headings of README.md at 67914e8, the last README that held the
    /// whole manual, literally and in order.
    static let oldReadmeHeadings = [
        "Quick start",
        "Install",
        "Usage",
        "What gets converted",
        "Output naming and safety",
        "Modes",
        "Provenance mark",
        "Inspecting files",
        "Comparing the modes",
        "Resizing: `--max-size` and `--thumbnail`",
        "Pixels: the engines",
        "Progressive, optimised, chroma",
        "Archive migration",
        "Watch mode",
        "CI conversion step",
        "Safety",
        "Exit codes",
        "Output",
        "Limits",
        "Benchmark",
        "Fuzzing",
        "Samples",
        "Development",
        "Reporting a bug",
        "Licence",
    ]

    /// docs/*.md, by path relative to the package root, with their text.
    static func docs() throws -> [String: String] {
        let root = Tool.packageRoot.path
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }
        var texts: [String: String] = [:]
        for name in names { texts["docs/" + name] = try String(contentsOfFile: root + "/docs/" + name, encoding: .utf8) }
        return texts
    }

    /// The headings of a Markdown text, any level, without their `#`s, outside fenced blocks.
    static func headings(in text: String) -> [String] {
        var found: [String] = []
        var inFence = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let marks = line.prefix { $0 == "#" }
            guard marks.count <= 6, line.dropFirst(marks.count).hasPrefix(" ") else { continue }
            found.append(line.dropFirst(marks.count).trimmingCharacters(in: .whitespaces))
        }
        return found
    }

    /// The headings of `wanted` that no document of `documents` has.
    static func homeless(_ wanted: [String], in documents: [String: String]) -> [String] {
        let present = Set(documents.values.flatMap { headings(in: $0) })
        return wanted.filter { !present.contains($0) }
    }

    /// The section under the `## title` heading of a Markdown text, up to the next `## `
    /// heading, without blank lines at either end; nil without that heading.
    static func section(_ title: String, of text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring("## " + title)) else { return nil }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("## ") || $0.hasPrefix("# ") } ?? rest.endIndex
        return rest[..<end].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("Each heading of the old README is a heading of a page in docs/")
    func everyHeadingHasAHome() throws {
        let docs = try Self.docs()
        #expect(!docs.isEmpty, "docs/ holds no page")
        #expect(Self.homeless(Self.oldReadmeHeadings, in: docs).isEmpty,
                "no page in docs/ has these headings: \(Self.homeless(Self.oldReadmeHeadings, in: docs))")
    }

    @Test("The checker finds a heading no page has, and ignores a fenced block's comment lines")
    func checkerCanFail() {
        let page = "# Title\n\n## Safety\n\n```sh\n# Limits\n```\n#hashtag\n### Resizing: `--max-size` and `--thumbnail`\n"
        #expect(Self.homeless(["Safety", "Limits", "hashtag", "Resizing: `--max-size` and `--thumbnail`"], in: ["docs/x.md": page])
                == ["Limits", "hashtag"])
    }

    @Test("README.md's quick start reads the same in docs/install.md")
    func quickStartIsTheSame() throws {
        let readme = try String(contentsOf: Tool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let front = try #require(Self.section("Quick start", of: readme), "README.md has no '## Quick start'")
        let install = try #require(Self.section("Quick start", of: try Self.docs()["docs/install.md"] ?? ""),
                                   "docs/install.md has no '## Quick start'")
        #expect(front == install)
    }

    @Test("docs/README.md and README.md's list link every page of docs/")
    func everyPageIsListed() throws {
        let docs = try Self.docs()
        let readme = try String(contentsOf: Tool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let index = try #require(docs["docs/README.md"], "docs/ has no README.md index")
        for page in docs.keys.sorted() where page != "docs/README.md" {
            let name = String(page.dropFirst("docs/".count))
            #expect(index.contains("](\(name))"), "docs/README.md does not link \(name)")
            #expect(readme.contains("](\(page))"), "README.md does not link \(page)")
        }
    }

    @Test("Each recipe marker is printed once in README.md and docs/, before a block that is its file's text")
    func recipesPrintedOnce() throws {
        let root = Tool.packageRoot.path
        var documents = try Self.docs()
        documents["README.md"] = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        var printed: [String: [String]] = [:]
        for (path, text) in documents.sorted(by: { $0.key < $1.key }) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- recipe: ") && line.hasSuffix(" -->") {
                let file = String(line.dropFirst("<!-- recipe: ".count).dropLast(" -->".count))
                printed[file, default: []].append(path)
                guard index + 1 < lines.count, lines[index + 1].hasPrefix("```"),
                      let close = lines[(index + 2)...].firstIndex(of: "```") else {
                    Issue.record("\(path): the marker for \(file) is not followed by a fenced block")
                    continue
                }
                let block = lines[(index + 2)..<close].joined(separator: "\n") + "\n"
                let onDisk = try? String(contentsOfFile: root + "/" + file, encoding: .utf8)
                #expect(onDisk == block, "\(file) is not the text \(path) prints")
            }
        }
        #expect(printed.count >= 9, "recipes printed: \(printed.keys.sorted())")
        for (file, paths) in printed { #expect(paths.count == 1, "\(file) is printed in \(paths)") }
    }
}
