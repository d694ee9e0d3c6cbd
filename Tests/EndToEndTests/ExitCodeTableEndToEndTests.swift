import Foundation
import H2JTestSupport
import Testing

/// docs/exit-codes.md's table against behaviour: every code it lists is the status of
/// a run that meets its row, there is no run for a code it leaves out, and `--help` lists
/// the same codes.
@Suite("End to end: the exit-code table")
struct ExitCodeTableEndToEndTests {
    /// A run for each row, as a bash script: `$0` is heic2jpg, `$1` a scratch directory,
    /// `$2` Samples/. The signal rows are checked in `signals`.
    static let scenarios: [String: String] = [
        "0": #""$0" -o "$1/out" "$2/monochrome.heic""#,
        "1": #"head -c 2000 "$2/monochrome.heic" >"$1/cut.heic"; "$0" -o "$1/out" "$1/cut.heic""#,
        "64": #""$0" --no-such-option "$2""#,
        "69": #"H2J_AVCODEC_NAMES=libavcodec-absent.so.0 "$0" --decoder avcodec-unchecked -o "$1/out" "$2/monochrome.heic""#,
        "73": #": >"$1/file"; "$0" --state "$1/file/state.db" -o "$1/out" "$2/monochrome.heic""#,
        "74": #""$0" -o - "$2/monochrome.heic" >&-"#,
        "75": #"ulimit -f 1; "$0" --dry-run --quiet -o "$1/out" --report "$1/r.jsonl" "$2""#,
    ]
    static let signalRow = "128 + N"

    /// The rows of the table under docs/exit-codes.md's "# Exit codes" title: (code as
    /// written, meaning).
    static func documentedRows() throws -> [(code: String, meaning: String)] {
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent("docs/exit-codes.md"), encoding: .utf8)
        let section = try #require(("\n" + text).components(separatedBy: "\n# Exit codes\n").dropFirst().first)
        var rows: [(String, String)] = []
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("| ") else {
                if rows.isEmpty { continue } else { break }
            }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[0] != "code" else { continue }
            rows.append((cells[0], cells[1...].joined(separator: "|")))
        }
        return rows
    }

    /// The rows of `--help`'s "EXIT CODES:" list: (code, meaning with its wrapped lines joined).
    static func helpRows() throws -> [(code: String, meaning: String)] {
        let help = try Tool.run(["--help"]).stdoutText
        let section = help.components(separatedBy: "\nEXIT CODES:\n").dropFirst().first ?? ""
        var rows: [(code: String, meaning: String)] = []
        for line in section.split(separator: "\n").prefix(while: { $0.hasPrefix("  ") }) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("   "), let last = rows.popLast() {
                rows.append((last.code, last.meaning + " " + text))
            } else {
                let code = String(text.prefix { $0 != " " })
                rows.append((code, text.dropFirst(code.count).trimmingCharacters(in: .whitespaces)))
            }
        }
        return rows
    }

    @Test("docs/exit-codes.md's table, --help and the runs agree: every listed code has a run that ends with it")
    func everyCodeIsProduced() throws {
        let rows = try Self.documentedRows()
        let codes = rows.map(\.code)
        #expect(Set(codes) == Set(Self.scenarios.keys).union([Self.signalRow]), "docs/exit-codes.md lists \(codes)")
        let listed = try Self.helpRows().map(\.code)
        #expect(listed == codes.map { $0.replacingOccurrences(of: " ", with: "") }, "--help lists \(listed)")
        for (code, script) in Self.scenarios.sorted(by: { $0.key < $1.key }) {
            let scratch = TemporaryDirectory()
            let outcome = try ChildProcess.run("/bin/bash", ["-c", script, Tool.binary, scratch.path, Tool.samples])
            #expect(outcome.status == Int32(code), "row \(code): \(script) ended with \(outcome.status): \(outcome.stderr)")
            if code != "0" { #expect(!outcome.stderr.isEmpty, "row \(code) says why on stderr") }
        }
    }

    @Test("A signal N mid-run ends it with 128 + N, each as the table names it", arguments: [
        (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGPIPE, "SIGPIPE"), (SIGTERM, "SIGTERM"),
    ])
    func signals(signal: Int32, name: String) throws {
        let meaning = try #require(try Self.documentedRows().first { $0.code == Self.signalRow }?.meaning)
        #expect(meaning.contains("\(128 + signal) \(name)"), "docs/exit-codes.md's row names \(128 + signal) \(name): \(meaning)")
        let helpRow = try Self.helpRows().first { $0.code == "128+N" }?.meaning ?? ""
        #expect(helpRow.contains("\(128 + signal) \(name)"), "--help names \(128 + signal) \(name): \(helpRow)")
        let scratch = TemporaryDirectory()
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic")))
        for index in 0..<300 { scratch.file("in/\(index).heic", photo) }
        // Signalled once its first JPEG is out, with 299 to go.
        let script = #""$0" -o "$1/out" "$1/in" & pid=$!; for i in $(seq 3000); do ls "$1"/out/*.jpg >/dev/null 2>&1 && break; sleep 0.01; done; kill -"$2" $pid; wait $pid"#
        let outcome = try ChildProcess.run("/bin/bash", ["-c", script, Tool.binary, scratch.path, name.replacingOccurrences(of: "SIG", with: "")])
        #expect(outcome.status == 128 + signal, "\(name): \(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted by signal \(signal)"), "\(name): \(outcome.stderr)")
        #expect(!scratch.files("out").contains { $0.hasPrefix(".") || $0.hasSuffix(".tmp") }, "no temp file: \(scratch.files("out"))")
    }
}
