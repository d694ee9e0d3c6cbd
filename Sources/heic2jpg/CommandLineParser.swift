import H2JInspect
import H2JMetadata
import H2JPipeline
import H2JSupport

/// What the command line asks for.
package enum Command: Equatable, Sendable {
    case convert(BatchRequest)
    /// `heic2jpg inspect …`: print image properties.
    case inspect(InspectRequest)
    /// `heic2jpg compare …`: convert in both modes in memory and print them side by side.
    case compare(CompareRequest)
    case help
    case version
}

/// Parses `heic2jpg [convert] [OPTIONS] <input>...` (and hands `inspect` and `compare`
/// to `SubcommandParser`) by hand, following
/// swift-argument-parser's conventions: `--opt value`, `--opt=value`, `-q90`, `--`
/// ends options, unknown options get a "Did you mean" suggestion.
package enum CommandLineParser {
    /// Every long option with its short form and whether it takes a value.
    static let options: [(long: String, short: Character?, takesValue: Bool)] = [
        ("--output", "o", true), ("--quality", "q", true), ("--jobs", "j", true),
        ("--metadata", nil, true), ("--strip-gps", nil, false), ("--no-mark", nil, false), ("--overwrite", nil, false), ("--dry-run", nil, false),
        ("--report", nil, true), ("--background", nil, true), ("--max-pixels", nil, true), ("--verbose", "v", false),
        ("--quiet", nil, false), ("--version", nil, false), ("--help", "h", false),
    ]

    /// Value names used in error messages, e.g. `-q <1-100>`.
    static let valueNames = [
        "--output": "<dir>", "--quality": "<1-100>", "--jobs": "<n>", "--metadata": "<mode>",
        "--report": "<file>", "--background": "<#rrggbb>", "--max-pixels": "<MP>",
    ]

    /// `arguments` excludes the program name.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var request = BatchRequest()
        var rest = arguments[...]
        switch rest.first {
        case "convert": rest = rest.dropFirst()
        case "inspect": return try SubcommandParser.inspect(Array(rest.dropFirst()))
        case "compare": return try SubcommandParser.compare(Array(rest.dropFirst()))
        default: break
        }
        var onlyInputs = false
        var sawVerbose = false, sawQuiet = false
        while let argument = rest.popFirst() {
            if onlyInputs || argument == "-" || !argument.hasPrefix("-") {
                request.inputs.append(argument)
                continue
            }
            if argument == "--" {
                onlyInputs = true
                continue
            }
            let (option, spelled, inlineValue) = try resolve(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw .missingValue("\(spelled) \(valueNames[option] ?? "")") }
                return next
            }
            let label = "\(spelled) \(valueNames[option] ?? "")"
            /// A path value where `-` means the standard stream.
            func endpoint() throws(UsageError) -> Endpoint {
                let path = try value()
                guard !path.isEmpty else { throw .invalidValue(path, for: label, "expected a path or '-'") }
                return path == "-" ? .standardStream : .path(path)
            }
            switch option {
            case "--help": return .help
            case "--version": return .version
            case "--output": request.output = try endpoint()
            case "--quality":
                let text = try value()
                guard let quality = Int(text), (1...100).contains(quality) else { throw .invalidValue(text, for: label, "expected a whole number from 1 to 100") }
                request.options.quality = quality
            case "--jobs":
                let text = try value()
                guard let jobs = Int(text), (1...1024).contains(jobs) else { throw .invalidValue(text, for: label, "expected a whole number from 1 to 1024") }
                request.jobs = jobs
            case "--metadata":
                let text = try value()
                guard let mode = MetadataMode(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'keep' or 'strip'") }
                request.options.metadata = mode
            case "--strip-gps": request.options.stripGPS = true
            case "--no-mark": request.options.mark = false
            case "--overwrite": request.options.overwrite = true
            case "--dry-run": request.options.dryRun = true
            case "--report": request.report = try endpoint()
            case "--background":
                let text = try value()
                guard let color = RGBColor(hex: text) else { throw .invalidValue(text, for: label, "expected a colour such as #ffffff") }
                request.options.background = color
            case "--max-pixels":
                let text = try value()
                let digits = text.hasSuffix("MP") ? text.dropLast(2) : text.hasSuffix("M") ? text.dropLast() : Substring(text)
                guard let megapixels = Int(digits), (1...ConversionOptions.maxMegapixels).contains(megapixels) else {
                    throw .invalidValue(text, for: label, "expected megapixels, a whole number from 1 to \(ConversionOptions.maxMegapixels)")
                }
                request.options.maxPixels = megapixels * 1_000_000
            case "--verbose":
                sawVerbose = true
                request.verbosity = .verbose
            case "--quiet":
                sawQuiet = true
                request.verbosity = .quiet
            default:
                throw .unknownOption(spelled, suggestion: nil)
            }
        }
        try validate(request, verboseAndQuiet: sawVerbose && sawQuiet)
        return .convert(request)
    }

    /// Maps an argument to its long option name, the spelling the user typed, and an
    /// attached value (`--quality=90`, `-q90`).
    static func resolve(_ argument: String) throws(UsageError) -> (option: String, spelled: String, value: String?) {
        if argument.hasPrefix("--") {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let known = options.first(where: { $0.long == name }) else {
                throw .unknownOption(name, suggestion: suggestion(for: name))
            }
            let inline = parts.count > 1 ? String(parts[1]) : nil
            if inline != nil && !known.takesValue { throw UsageError(message: "The option '\(name)' does not take a value") }
            return (known.long, name, inline)
        }
        let letter = argument.dropFirst().first
        guard let known = options.first(where: { $0.short != nil && $0.short == letter }) else {
            throw .unknownOption(argument, suggestion: suggestion(for: argument))
        }
        let attached = String(argument.dropFirst(2))
        if !attached.isEmpty && !known.takesValue { throw .unknownOption(argument, suggestion: nil) }
        return (known.long, "-" + String(letter!), attached.isEmpty ? nil : attached)
    }

    /// The known option closest to `name` by edit distance, if it is close enough to be a typo.
    static func suggestion(for name: String) -> String? {
        let bare = name.drop { $0 == "-" }
        let scored = options.map { ($0.long, editDistance(Array(bare), Array($0.long.dropFirst(2)))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, bare.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Rules that involve several options.
    static func validate(_ request: BatchRequest, verboseAndQuiet: Bool) throws(UsageError) {
        if request.inputs.isEmpty { throw UsageError(message: "Missing expected argument '<input> ...'") }
        if verboseAndQuiet { throw UsageError(message: "'--verbose' and '--quiet' cannot be used together") }
        if request.inputs.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "'-' (stdin) can be given only once") }
        if request.inputs.contains("-") && request.output == nil {
            throw UsageError(message: "Reading from stdin ('-') needs '--output <dir>' or '-o -' for stdout")
        }
        if request.output == .standardStream {
            guard request.inputs.count == 1 else { throw UsageError(message: "'-o -' writes one JPEG to stdout, so it takes exactly one input") }
            if request.report == .standardStream { throw UsageError(message: "'-o -' and '--report -' cannot both use stdout") }
        }
    }
}
