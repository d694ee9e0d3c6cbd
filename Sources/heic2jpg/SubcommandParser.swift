import H2JInspect
import H2JBatch
import H2JCompare
import H2JConvert
import H2JJob

/// Parses the arguments after `inspect`, `compare` or `help` over `ArgumentScanner`, with
/// the same conventions as `CommandLineParser`.
enum SubcommandParser {
    /// `heic2jpg help [subcommand]`, as swift-argument-parser reads it. (A file named
    /// `help` is converted as `./help` or after `--`.)
    static func help(_ arguments: [String]) throws(UsageError) -> Command {
        guard let name = arguments.first else { return .help(.convert) }
        guard arguments.count == 1, let topic = HelpTopic(rawValue: name) else {
            let names = HelpTopic.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "'help' takes at most one subcommand (\(names)), not '\(arguments.joined(separator: " "))'")
        }
        return .help(topic)
    }

    /// `heic2jpg version [--verbose] [--json]`, and `heic2jpg --version …`, whose
    /// arguments come here whole (so `--version` may appear among them). Anything else
    /// is a usage error, since it would do nothing. (A file named `version` is converted
    /// as `./version` or after `--`.)
    static func version(_ arguments: [String]) throws(UsageError) -> Command {
        if wantsHelp(arguments) { return .help(arguments.first == "--version" ? .convert : .version) }
        var request = VersionRequest()
        // `--version` is convert's own option, which brought the arguments here.
        let options = scanned(OptionTable.version) + [OptionSpec("--version")]
        var scanner = ArgumentScanner(arguments[...], options: options)
        while let token = try scanner.next() {
            switch token {
            case .input(let input):
                throw UsageError(message: "The version takes no '<input>', not '\(input)' (usage: heic2jpg \(CommandDescription.version.synopsis))")
            case .option(let option, _, _):
                switch option.long {
                case "--verbose": request.verbose = true
                case "--json": request.json = true
                default: break // "--version"
                }
            }
        }
        return .version(request)
    }

    static func inspect(_ arguments: [String]) throws(UsageError) -> Command {
        if wantsHelp(arguments) { return .help(.inspect) }
        var request = InspectRequest()
        var outputs = ConversionOptions()
        var scanner = ArgumentScanner(arguments[...], options: scanned(OptionTable.inspect))
        while let token = try scanner.next() {
            switch token {
            case .input(let file): request.files.append(file)
            case .option(let option, let spelled, let value):
                switch option.long {
                case "--json": request.json = true
                case "--source": request.source = value
                default: try CommandLineParser.outputChoice(option.long, value ?? "", label: option.label(spelled), into: &outputs)
                }
            }
        }
        request.outputs = outputs.outputChoices
        try requireFiles(request.files, usage: CommandDescription.inspect.synopsis)
        return .inspect(request)
    }

    static func compare(_ arguments: [String]) throws(UsageError) -> Command {
        if wantsHelp(arguments) { return .help(.compare) }
        var request = CompareRequest()
        var scanner = ArgumentScanner(arguments[...], options: scanned(OptionTable.compare))
        while let token = try scanner.next() {
            switch token {
            case .input(let file): request.files.append(file)
            case .option(let option, let spelled, let value):
                let text = value ?? ""
                switch option.long {
                case "--quality":
                    let qualities = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
                    guard qualities.allSatisfy({ $0.map((1...100).contains) == true }) else {
                        throw .invalidValue(text, for: option.label(spelled), "expected whole numbers from 1 to 100, separated by commas")
                    }
                    request.qualities = qualities.compactMap { $0 }
                case "--max-size":
                    let boxes = text.split(separator: ",", omittingEmptySubsequences: false).map { OutputBox(String($0)) }
                    guard boxes.allSatisfy({ $0 != nil }) else {
                        throw .invalidValue(text, for: option.label(spelled), "expected N or WxH in pixels, separated by commas, such as 1024,2048")
                    }
                    request.maxSizes = boxes
                case _ where CommandLineParser.shapingOptions.contains(option.long):
                    try CommandLineParser.shapingOption(option.long, text, label: option.label(spelled), into: &request.options)
                case "--timeout":
                    guard let seconds = WorkerLimits.parseTimeout(text) else {
                        throw .invalidValue(text, for: option.label(spelled), WorkerLimits.timeoutExpected)
                    }
                    request.timeoutSeconds = seconds
                case "--decoder": request.decoder = try CommandLineParser.decoder(text, label: option.label(spelled))
                case "--json": request.json = true
                case "--html":
                    guard !text.isEmpty else { throw .invalidValue(text, for: option.label(spelled), "expected a file") }
                    request.html = text
                default: throw .unknownOption(spelled, suggestion: nil) // a row of OptionTable.compare not handled here
                }
            }
        }
        if request.options.thumbnail && request.maxSizes.contains(nil) { throw UsageError(message: "'--thumbnail' goes with '--max-size'") }
        try requireFiles(request.files, usage: CommandDescription.compare.synopsis)
        return .compare(request)
    }

    static func status(_ arguments: [String]) throws(UsageError) -> Command {
        if wantsHelp(arguments) { return .help(.status) }
        var request = StatusRequest()
        var scanner = ArgumentScanner(arguments[...], options: scanned(OptionTable.status))
        while let token = try scanner.next() {
            switch token {
            case .input(let file): request.states.append(file)
            case .option(let option, let spelled, let value):
                switch option.long {
                case "--json": request.json = true
                case "--state": request.states.append(value ?? "")
                default:
                    guard let value, !value.isEmpty else { throw .invalidValue(value ?? "", for: option.label(spelled), "expected a file") }
                    request.html = value
                }
            }
        }
        try requireFiles(request.states, usage: CommandDescription.status.synopsis)
        return .status(request)
    }

    /// A subcommand's options as its scanner takes them: all of its table's but
    /// `--help`, which `wantsHelp` has looked for already.
    private static func scanned(_ entries: [OptionEntry]) -> [OptionSpec] {
        entries.filter { $0.long != OptionTable.help.long }.map(\.spec)
    }

    /// `-h`/`--help` before any `--`: help wins over every other argument.
    private static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    private static func requireFiles(_ files: [String], usage: String) throws(UsageError) {
        if files.isEmpty { throw UsageError(message: "Missing expected argument '<file> ...' (usage: heic2jpg \(usage))") }
    }
}
