import Foundation

/// One run of the binary over `../shared/corpus` per metadata mode, shared by every test
/// that checks that run's outputs, so the corpus is converted once per test process
/// rather than once per test. Tests that need other flags (`--strip-gps`, `--no-mark`,
/// another quality) or a single file keep their own runs.
///
/// `keep` and `strip` are static lets: Swift initialises each once, thread-safely, on
/// first use, so tests running in parallel wait for the one conversion. Nothing runs
/// where the corpus is absent: the tests using them are disabled there, so the first
/// access never happens (and would throw `CorpusConversion.Missing` if it did).
struct CorpusConversion: @unchecked Sendable {
    // @unchecked: every property is a `let` set before the value is shared, and the
    // report's objects (from JSONSerialization) are only ever read.

    struct Missing: Error, CustomStringConvertible {
        var description: String { "../shared/corpus is not present" }
    }

    /// The corpus that was converted.
    let corpus: String
    /// The run's directory: `out/` (the outputs) and `r.jsonl` (the report). It is kept
    /// until the test process exits, since tests read it long after the run.
    let directory: String
    let outcome: Tool.Outcome
    /// The report's result objects, by source path relative to the corpus.
    let entries: [String: [String: Any]]

    /// `-o` of the run.
    var outputDirectory: String { directory + "/out" }

    /// Where the output of `file` (relative to the corpus) went.
    func output(for file: String) -> String {
        outputDirectory + "/" + (file as NSString).deletingPathExtension + ".jpg"
    }

    /// Every file below `out/`, relative, sorted.
    func outputFiles() -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: outputDirectory)) ?? []
        return all.filter { relative in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: outputDirectory + "/" + relative, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    /// The default run (`--metadata keep`).
    static var keep: CorpusConversion { get throws { try keepRun.get() } }
    /// `--metadata strip`.
    static var strip: CorpusConversion { get throws { try stripRun.get() } }

    private static let keepRun = Result { try CorpusConversion(name: "keep", flags: []) }
    private static let stripRun = Result { try CorpusConversion(name: "strip", flags: ["--metadata", "strip"]) }

    /// The parent of every run's directory in this process; removed when the process
    /// exits (the handler is registered by this initialiser, so `root` is set by then).
    private static let root: String = {
        atexit { try? FileManager.default.removeItem(atPath: CorpusConversion.root) }
        return NSTemporaryDirectory() + "heic2jpg-corpus-" + UUID().uuidString
    }()

    private init(name: String, flags: [String]) throws {
        guard let corpus = Tool.corpus else { throw Missing() }
        self.corpus = corpus
        directory = Self.root + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let report = directory + "/r.jsonl"
        outcome = try Tool.run(flags + ["-o", directory + "/out", "--report", report, corpus])
        var entries: [String: [String: Any]] = [:]
        for line in try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n") {
            if let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let source = object["source"] as? String {
                entries[String(source.dropFirst(corpus.count + 1))] = object
            }
        }
        self.entries = entries
    }
}
