import Foundation
import H2JJob
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JSupport
@testable import heic2jpg

@Suite("Command line parsing")
struct CommandLineParserTests {
    func request(_ arguments: [String]) throws -> BatchRequest {
        guard case .convert(let request) = try CommandLineParser.parse(arguments) else {
            Issue.record("expected a convert command")
            return BatchRequest()
        }
        return request
    }

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try CommandLineParser.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("Defaults match the documented ones")
    func defaults() throws {
        let r = try request(["photos"])
        #expect(r.inputs == ["photos"])
        #expect(r.output == nil)
        #expect(r.options.quality == 90)
        #expect(r.options.metadata == .keep)
        #expect(r.options.background == .white)
        #expect(!r.options.overwrite && !r.options.dryRun)
        #expect(r.jobs == BatchRequest.cpuCount)
        #expect(r.verbosity == .normal)
        #expect(r.report == nil)
        #expect(r.options.maxPixels == 256_000_000)
        #expect(!r.options.stripGPS)
        #expect(try request(["--strip-gps", "photos"]).options.stripGPS)
    }

    @Test("--max-pixels takes megapixels, with or without an M/MP suffix")
    func maxPixels() throws {
        #expect(try request(["--max-pixels", "50", "x"]).options.maxPixels == 50_000_000)
        #expect(try request(["--max-pixels=300MP", "x"]).options.maxPixels == 300_000_000)
        #expect(try request(["--max-pixels", "4294M", "x"]).options.maxPixels == 4_294_000_000)
        #expect(usageError(["--max-pixels", "0", "x"]) == "The value '0' is invalid for '--max-pixels <MP>': expected megapixels, a whole number from 1 to 4294")
        #expect(usageError(["--max-pixels", "1e9", "x"]) == "The value '1e9' is invalid for '--max-pixels <MP>': expected megapixels, a whole number from 1 to 4294")
    }

    @Test("--max-memory takes a size of at least 64M (default: from the pixel limit); --timeout seconds, 0 for none (default 120); the output size limit follows the pixel limit")
    func workerLimits() throws {
        let defaults = try request(["x"])
        #expect(defaults.maxMemory == nil && defaults.timeoutSeconds == 120)
        #expect(defaults.workerLimits == WorkerLimits(memoryBytes: 256_000_000 * 8 + (512 << 20), timeoutSeconds: 120))
        #expect(try request(["--max-pixels", "50", "x"]).workerLimits.memoryBytes == 50_000_000 * 8 + (512 << 20))
        #expect(try request(["--max-pixels", "50", "x"]).workerLimits.outputBytes == 50_000_000 * 12 + (128 << 20),
                "RLIMIT_FSIZE: two images at 6 bytes a pixel, and 128 MiB of segments and trailers")
        let set = try request(["--max-memory", "1G", "--timeout=0", "x"])
        #expect(set.workerLimits == WorkerLimits(memoryBytes: 1 << 30, timeoutSeconds: 0))
        #expect(try request(["--max-memory=64M", "x"]).maxMemory == 64 << 20)
        #expect(usageError(["--max-memory", "63M", "x"]) == "The value '63M' is invalid for '--max-memory <size>': expected a size of at least 64M, such as 2G or 512M")
        #expect(usageError(["--timeout=-1", "x"]) == "The value '-1' is invalid for '--timeout <seconds>': expected seconds, a whole number from 0 (no limit) to 86400")
        #expect(usageError(["--timeout", "2m", "x"]) != nil)
    }

    @Test("--state takes a file; --wait alone waits for ever, --wait=SECONDS that long, and never takes a separate value")
    func stateAndWait() throws {
        let defaults = try request(["x"])
        #expect(defaults.state == nil && defaults.waitSeconds == nil)
        #expect(try request(["--state", "s.db", "x"]).state == "s.db")
        #expect(try request(["--wait", "x"]).waitSeconds == .infinity)
        #expect(try request(["--wait", "x"]).inputs == ["x"], "a separate word after --wait is an input")
        #expect(try request(["--wait=600", "x"]).waitSeconds == 600)
        #expect(usageError(["--wait=soon", "x"]) == "The value 'soon' is invalid for '--wait[=<seconds>]': expected seconds, such as 600")
        #expect(usageError(["--state", "-", "x"]) != nil)
    }

    @Test("--files-from with -0 and --base, and --shard K/N; their rules")
    func listsAndShards() throws {
        let scratch = FileManager.default.temporaryDirectory.path
        let r = try request(["--files-from", "-", "-0", "--base", scratch, "--shard", "1/4", "-o", "out"])
        #expect(r.filesFrom == .standardStream && r.listSeparator == 0 && r.base == scratch && r.shard == Shard(index: 1, count: 4))
        #expect(try request(["--files-from", "list.txt"]).listSeparator == UInt8(ascii: "\n"))
        #expect(usageError(["--files-from", "-", "x"]) == "'--files-from' lists the inputs: give no '<input>' besides it")
        #expect(usageError(["--base", scratch, "x"]) == "'--base' goes with '--files-from'")
        #expect(usageError(["-0", "x"]) == "'-0' ('--null') goes with '--files-from'")
        #expect(usageError(["--files-from", "l", "--base", "/nonexistent-base"]) == "'--base /nonexistent-base' is not a directory")
        #expect(usageError(["--shard", "4/4", "x"]) == "The value '4/4' is invalid for '--shard <k/n>': expected K/N with 0 <= K < N, such as 0/4")
        guard case .status(let status) = try CommandLineParser.parse(["status", "--json", "a.db", "b.db"]) else {
            Issue.record("not status")
            return
        }
        #expect(status.json && status.states == ["a.db", "b.db"])
        #expect(usageError(["status"]) != nil)
    }

    @Test("Every option, in its long, short and attached spellings")
    func allOptions() throws {
        let r = try request(["convert", "-o", "out", "-q80", "--jobs=3", "--metadata", "strip", "--overwrite",
                             "--dry-run", "--report", "r.jsonl", "--background", "#000000", "-v", "a.heic", "dir"])
        #expect(r.inputs == ["a.heic", "dir"])
        #expect(r.output == .path("out"))
        #expect(r.options.quality == 80)
        #expect(r.jobs == 3)
        #expect(r.options.metadata == .strip)
        #expect(r.options.overwrite && r.options.dryRun)
        #expect(r.report == .path("r.jsonl"))
        #expect(r.options.background == RGBColor(red: 0, green: 0, blue: 0))
        #expect(r.verbosity == .verbose)
    }

    @Test("'convert' is optional and '--' ends options")
    func subcommandAndDoubleDash() throws {
        #expect(try request(["--quiet", "--", "-odd-name.heic"]).inputs == ["-odd-name.heic"])
        #expect(try request(["--quiet", "x"]).verbosity == .quiet)
    }

    @Test("Help and version win wherever they appear")
    func helpAndVersion() throws {
        #expect(try CommandLineParser.parse(["x", "--help"]) == .help(.convert))
        #expect(try CommandLineParser.parse(["-h"]) == .help(.convert))
        #expect(try CommandLineParser.parse(["--version"]) == .version(VersionRequest()))
    }

    @Test("stdin and stdout rules")
    func streams() throws {
        let r = try request(["-", "-o", "-"])
        #expect(r.inputs == ["-"] && r.output == .standardStream)
        #expect(usageError(["-"]) == "Reading from stdin ('-') needs '--output <dir>' or '-o -' for stdout")
        #expect(usageError(["a", "b", "-o", "-"]) == "'-o -' writes one JPEG to stdout, so it takes exactly one input")
        #expect(usageError(["a", "-o", "-", "--report", "-"]) == "'-o -' and '--report -' cannot both use stdout")
        #expect(usageError(["-", "-", "-o", "x"]) == "'-' (stdin) can be given only once")
    }

    @Test("Error texts follow swift-argument-parser")
    func errors() {
        #expect(usageError(["--qualty", "9", "x"]) == "Unknown option '--qualty'. Did you mean '--quality'?")
        #expect(usageError(["--frobnicate", "x"]) == "Unknown option '--frobnicate'.")
        #expect(usageError(["-x", "a"]) == "Unknown option '-x'.")
        #expect(usageError(["-q", "0", "x"]) == "The value '0' is invalid for '-q <1-100>': expected a whole number from 1 to 100")
        #expect(usageError(["--quality=abc", "x"]) == "The value 'abc' is invalid for '--quality <1-100>': expected a whole number from 1 to 100")
        #expect(usageError(["x", "-q"]) == "Missing value for '-q <1-100>'")
        #expect(usageError(["--metadata", "all", "x"]) == "The value 'all' is invalid for '--metadata <mode>': expected 'keep' or 'strip'")
        #expect(usageError(["--background", "white", "x"]) == "The value 'white' is invalid for '--background <#rrggbb>': expected a colour such as #ffffff")
        #expect(usageError(["-j", "0", "x"]) == "The value '0' is invalid for '-j <n>': expected a whole number from 1 to 1024")
        #expect(usageError(["-o", "", "x"]) == "The value '' is invalid for '-o <dir>': expected a path or '-'")
        #expect(usageError([]) == "Missing expected argument '<input> ...'")
        #expect(usageError(["-v", "--quiet", "x"]) == "'--verbose' and '--quiet' cannot be used together")
        #expect(usageError(["--overwrite=yes", "x"]) == "The option '--overwrite' does not take a value")
    }

    @Test("The error block has the three documented lines")
    func errorBlock() {
        let text = HelpText.error(UsageError(message: "Missing expected argument '<input> ...'"))
        #expect(text == """
        Error: Missing expected argument '<input> ...'
        Usage: heic2jpg [convert] [<options>] <input> ...
          See 'heic2jpg --help' for more information.

        """)
    }

    @Test("Help lists every option, --version before -h, --help last")
    func helpLayout() {
        let help = HelpText.help
        for option in CommandLineParser.options {
            #expect(help.contains(option.long), "help misses \(option.long)")
        }
        let lines = help.split(separator: "\n").map(String.init)
        let version = lines.firstIndex { $0.contains("--version") } ?? -1
        let helpLine = lines.firstIndex { $0.contains("-h, --help") } ?? -1
        #expect(version >= 0 && helpLine == version + 1)
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("\nUSAGE: heic2jpg [convert] [<options>] <input> ...\n"))
    }

    @Test("Background colours parse as #rrggbb")
    func colours() {
        #expect(RGBColor(hex: "#ff8000") == RGBColor(red: 255, green: 128, blue: 0))
        #expect(RGBColor(hex: "00ff00") == RGBColor(red: 0, green: 255, blue: 0))
        #expect(RGBColor(hex: "#fff") == nil)
        #expect(RGBColor(hex: "#gggggg") == nil)
        #expect(RGBColor.white.description == "#ffffff")
    }
}
