import Foundation
import H2JTestSupport
import Testing

/// `--exclude`: NAS thumbnail and recycle folders left out of a walk and of a list, whole,
/// and a dry run that says what it left out.
@Suite("End to end: --exclude")
struct ExcludeEndToEndTests {
    /// A tree with a photo in each of: the top, `a/`, `a/@eaDir/`, `b/.thumbnails/x/`,
    /// `2019/`, `2019/raw/`, `#recycle/`, and a `keep.tmp.heic` in `a/`.
    static func tree(_ scratch: TemporaryDirectory) throws -> String {
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic")))
        for path in ["p.heic", "a/p.heic", "a/@eaDir/p.heic", "b/.thumbnails/x/p.heic", "2019/p.heic", "2019/raw/p.heic",
                     "#recycle/p.heic", "a/keep.tmp.heic"] {
            scratch.file("in/" + path, photo)
        }
        return scratch.sub("in")
    }

    static let patterns = ["--exclude", "@eaDir", "--exclude", ".thumbnails", "--exclude", "2019/raw", "--exclude", "#recycle",
                           "--exclude", "*.tmp"]

    @Test("A walk leaves out each matching directory whole, by name at any depth or by path from the input; a dry run names each once")
    func walk() throws {
        let scratch = TemporaryDirectory()
        let input = try Self.tree(scratch)
        let dry = try Tool.run(["--dry-run", "-o", scratch.sub("out")] + Self.patterns + [input])
        #expect(dry.status == 0, "\(dry.stderr)")
        let excluded = dry.stderr.split(separator: "\n").filter { $0.hasPrefix("excluded: ") }.map(String.init).sorted()
        #expect(excluded == ["excluded: \(input)/#recycle (--exclude #recycle)", "excluded: \(input)/2019/raw (--exclude 2019/raw)",
                             "excluded: \(input)/a/@eaDir (--exclude @eaDir)", "excluded: \(input)/b/.thumbnails (--exclude .thumbnails)"],
                "\(dry.stderr)")
        #expect(scratch.files().allSatisfy { !$0.hasPrefix("out/") || $0.hasSuffix("/") }, "a dry run writes nothing")
        let run = try Tool.run(["-o", scratch.sub("out")] + Self.patterns + [input])
        #expect(run.status == 0, "\(run.stderr)")
        // `*.tmp` has no '/': it is matched against names, and keep.tmp.heic does not end in .tmp.
        #expect(scratch.files("out").filter { !$0.hasSuffix("/") }.sorted() == ["2019/p.jpg", "a/keep.tmp.jpg", "a/p.jpg", "p.jpg"],
                "\(scratch.files("out"))")
        #expect(!run.stderr.contains("excluded:"), "said only in a dry run or with -v: \(run.stderr)")
    }

    @Test("A --files-from list leaves out listed files under an excluded directory, and those matching by name")
    func list() throws {
        let scratch = TemporaryDirectory()
        let input = try Self.tree(scratch)
        let list = ["p.heic", "a/@eaDir/p.heic", "2019/raw/p.heic", "2019/p.heic", "b/.thumbnails/x/p.heic"].joined(separator: "\n") + "\n"
        let run = try Tool.run(["--files-from", "-", "--base", input, "-o", scratch.sub("out"), "-v"] + Self.patterns,
                               stdin: Data(list.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(scratch.files("out").filter { !$0.hasSuffix("/") }.sorted() == ["2019/p.jpg", "p.jpg"], "\(scratch.files("out"))")
        #expect(run.stderr.contains("excluded: \(input)/a/@eaDir/p.heic (--exclude @eaDir)"), "\(run.stderr)")
    }
}
