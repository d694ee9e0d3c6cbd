import H2JCompare
import H2JJob
import Testing
@testable import H2JInspect
import H2JOutputPlan
@testable import H2JBatch
@testable import H2JConvert
@testable import heic2jpg

/// `inspect` and `compare` parse through the same `ArgumentScanner` as `convert`: the
/// same `=` handling, attached short values, `--`, and typo suggestions.
@Suite("Subcommand parsing: one argument loop for every command")
struct SubcommandParserTests {
    func usageError(_ arguments: [String]) -> String? { CommandLineParserTests().usageError(arguments) }

    @Test("compare: --quality=80, -q80, -q 80 and --quality 80 all mean 80")
    func compareQualitySpellings() throws {
        for spelling in [["--quality=80"], ["-q80"], ["-q", "80"], ["--quality", "80"]] {
            guard case .compare(let request) = try CommandLineParser.parse(["compare"] + spelling + ["a.heic"]) else {
                Issue.record("expected compare for \(spelling)")
                continue
            }
            #expect(request.qualities == [80], "\(spelling)")
            #expect(request.files == ["a.heic"])
        }
    }

    @Test("compare: -q and --max-size take lists; every quality meets every box, qualities outermost")
    func compareVariants() throws {
        guard case .compare(let request) = try CommandLineParser.parse(["compare", "-q", "70,90", "--max-size", "1024,640x480",
                                                                         "--colorspace", "srgb", "a.heic"]),
              case .compare(let plain) = try CommandLineParser.parse(["compare", "a.heic"]) else {
            Issue.record("expected compare")
            return
        }
        let boxes = [OutputBox("1024"), OutputBox("640x480")]
        #expect(request.variants == [CompareVariant(quality: 70, maxSize: boxes[0]), CompareVariant(quality: 70, maxSize: boxes[1]),
                                     CompareVariant(quality: 90, maxSize: boxes[0]), CompareVariant(quality: 90, maxSize: boxes[1])])
        #expect(request.options.colorspace == .srgb)
        #expect(plain.variants == [CompareVariant(quality: 90, maxSize: nil)])
        #expect(usageError(["compare", "-q", "70,,90", "a.heic"])
                == "The value '70,,90' is invalid for '-q <q,...>': expected whole numbers from 1 to 100, separated by commas")
        #expect(usageError(["compare", "--thumbnail", "a.heic"]) == "'--thumbnail' goes with '--max-size'")
    }

    @Test("compare: --timeout as convert takes it, 120 s by default; anything else is a usage error")
    func compareTimeout() throws {
        guard case .compare(let given) = try CommandLineParser.parse(["compare", "--timeout", "5", "--json", "a.heic"]),
              case .compare(let unset) = try CommandLineParser.parse(["compare", "a.heic"]) else {
            Issue.record("expected compare")
            return
        }
        #expect(given.timeoutSeconds == 5 && given.json && unset.timeoutSeconds == 120)
        #expect(usageError(["compare", "--timeout=-1", "a.heic"])
                == "The value '-1' is invalid for '--timeout <seconds>': expected seconds, a whole number from 0 (no limit) to 86400")
    }

    @Test("inspect: --source=FILE and --source FILE; '--' makes the rest files")
    func inspectSpellings() throws {
        guard case .inspect(let attached) = try CommandLineParser.parse(["inspect", "--source=s.heic", "--json", "x.jpg"]),
              case .inspect(let separate) = try CommandLineParser.parse(["inspect", "--source", "s.heic", "x.jpg", "--", "--json"])
        else {
            Issue.record("expected inspect")
            return
        }
        #expect(attached.source == "s.heic" && attached.json && attached.files == ["x.jpg"])
        #expect(separate.source == "s.heic" && !separate.json && separate.files == ["x.jpg", "--json"])
    }

    @Test("inspect takes convert's output options, parsed by the same code, to plan the outputs with")
    func inspectOutputOptions() throws {
        let arguments = ["--images", "primary", "--aux=depth,matte", "--hdr", "sdr", "--stereo", "split", "--metadata", "strip"]
        guard case .inspect(let request) = try CommandLineParser.parse(["inspect"] + arguments + ["x.heic"]),
              case .convert(let convert) = try CommandLineParser.parse(arguments + ["x.heic"]) else {
            Issue.record("expected inspect and convert")
            return
        }
        #expect(request.outputs == convert.options.outputChoices)
        #expect(request.outputs.images == .primary && request.outputs.auxiliaries == [.depth, .matte] && request.outputs.auxiliariesChosen)
        #expect(request.outputs.hdr == .sdr && request.outputs.stereo == .split && request.outputs.metadata == .strip)
        guard case .inspect(let defaults) = try CommandLineParser.parse(["inspect", "x.heic"]) else { return }
        #expect(defaults.outputs == ConversionOptions().outputChoices && !defaults.outputs.auxiliariesChosen)
        #expect(usageError(["inspect", "--images", "some", "x"]) == "The value 'some' is invalid for '--images <which>': expected 'all' or 'primary'")
        #expect(usageError(["inspect", "--quality", "80", "x"]) == "Unknown option '--quality'.")
    }

    @Test("Errors read as convert's: typo suggestions, values given to flags, missing values with their name")
    func errors() {
        #expect(usageError(["inspect", "--jsn", "x"]) == "Unknown option '--jsn'. Did you mean '--json'?")
        #expect(usageError(["compare", "--quallity", "80", "x"]) == "Unknown option '--quallity'. Did you mean '--quality'?")
        #expect(usageError(["inspect", "--json=yes", "x"]) == "The option '--json' does not take a value")
        #expect(usageError(["inspect", "x", "--source"]) == "Missing value for '--source <file>'")
        #expect(usageError(["compare", "-q", "0", "x"]) == "The value '0' is invalid for '-q <q,...>': expected whole numbers from 1 to 100, separated by commas")
        #expect(usageError(["compare"]) == "Missing expected argument '<file> ...' (usage: heic2jpg compare [--json] [--html <file>] [-q <q,...>] [--max-size <box,...>] [--thumbnail] "
                + "[--colorspace <space>] [--progressive] [--optimize] [--sampling <chroma>] [--timeout <seconds>] [--decoder <name>] <file> ...)")
        #expect(usageError(["inspect", "--frobnicate", "x"]) == "Unknown option '--frobnicate'.")
        #expect(usageError(["compare", "--html=", "x"]) == "The value '' is invalid for '--html <file>': expected a file")
    }

    @Test("compare --html takes the page's path, beside --json")
    func compareHTML() throws {
        guard case .compare(let request) = try CommandLineParser.parse(["compare", "--json", "--html", "page.html", "a.heic"]) else {
            Issue.record("expected compare"); return
        }
        #expect(request.html == "page.html" && request.json && request.files == ["a.heic"])
    }

    @Test("-h or --help before '--' asks for help whatever else is there")
    func help() throws {
        #expect(try CommandLineParser.parse(["inspect", "--bogus", "-h"]) == .help(.inspect))
        #expect(try CommandLineParser.parse(["compare", "x", "--help"]) == .help(.compare))
        #expect(try CommandLineParser.parse(["convert", "--help"]) == .help(.convert))
        guard case .inspect(let request) = try CommandLineParser.parse(["inspect", "--", "--help"]) else {
            Issue.record("expected inspect")
            return
        }
        #expect(request.files == ["--help"])
    }

    @Test("help [subcommand] is help, as in swift-argument-parser; a file named help is ./help")
    func helpSubcommand() throws {
        #expect(try CommandLineParser.parse(["help"]) == .help(.convert))
        #expect(try CommandLineParser.parse(["help", "inspect"]) == .help(.inspect))
        #expect(try CommandLineParser.parse(["help", "compare"]) == .help(.compare))
        #expect(try CommandLineParser.parse(["help", "convert"]) == .help(.convert))
        #expect(try CommandLineParser.parse(["help", "status"]) == .help(.status))
        #expect(try CommandLineParser.parse(["status", "--help"]) == .help(.status))
        #expect(usageError(["help", "frob"]) == "'help' takes at most one subcommand (convert, inspect, compare, status, version, watch), not 'frob'")
        #expect(usageError(["help", "inspect", "x"]) == "'help' takes at most one subcommand (convert, inspect, compare, status, version, watch), not 'inspect x'")
        guard case .convert(let request) = try CommandLineParser.parse(["./help"]) else {
            Issue.record("expected convert")
            return
        }
        #expect(request.inputs == ["./help"])
    }

    @Test("A separate value that looks like an option is refused; '-' and --opt=-x are values")
    func optionLookingValues() throws {
        #expect(usageError(["--report", "-o", "out", "a.heic"])
            == "Missing value for '--report <file>': '-o' is an option (write --report=-o if it is the value)")
        #expect(usageError(["-o", "--quiet", "a.heic"]) == "Missing value for '-o <dir>': '--quiet' is an option (write -o=--quiet if it is the value)")
        #expect(usageError(["inspect", "--source", "-x", "a.jpg"])
            == "Missing value for '--source <file>': '-x' is an option (write --source=-x if it is the value)")
        guard case .convert(let stdout) = try CommandLineParser.parse(["-o", "-", "a.heic"]),
              case .convert(let inline) = try CommandLineParser.parse(["--report=-o", "a.heic"]) else {
            Issue.record("expected convert")
            return
        }
        #expect(stdout.output == .standardStream)
        #expect(inline.report == .path("-o"))
    }
}
