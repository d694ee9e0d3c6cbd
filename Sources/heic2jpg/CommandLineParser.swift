import H2JInspect
import H2JJPEG
import H2JJob
import H2JMetadata
import H2JOutputPlan
import H2JBatch
import H2JCompare
import H2JConvert
import H2JSupport
import H2JJPEGCodec

/// What the command line asks for.
package enum Command: Equatable, Sendable {
    case convert(BatchRequest)
    /// `heic2jpg inspect …`: print image properties.
    case inspect(InspectRequest)
    /// `heic2jpg compare …`: convert in both modes in memory and print them side by side.
    case compare(CompareRequest)
    /// `heic2jpg status …`: what state files record.
    case status(StatusRequest)
    /// `heic2jpg watch …`: convert photos as they arrive in directories.
    case watch(WatchRequest)
    /// `--help`, `-h`, `help [subcommand]` or `SUBCOMMAND --help`.
    case help(HelpTopic)
    /// `--version` or `version`, with `--verbose` and `--json`.
    case version(VersionRequest)
    /// `--generate-man-page`: print heic2jpg.1.
    case manPage
    /// `--generate-completion-script <shell>`.
    case completionScript(CompletionShell)
}

/// Which command's help to print.
package enum HelpTopic: String, CaseIterable, Equatable, Sendable {
    /// The program's overview, which is `convert`'s help (the default command).
    case convert
    case inspect
    case compare
    case status
    case version
    case watch
}

/// Parses `heic2jpg [convert] [OPTIONS] <input>...` (and hands `inspect` and `compare`
/// to `SubcommandParser`) over `ArgumentScanner`.
package enum CommandLineParser {
    /// Every option of `convert`, from the one option table help and man page list.
    static let options = OptionTable.convert.map(\.spec)

    /// `arguments` excludes the program name.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        var rest = arguments[...]
        switch rest.first {
        case "convert": rest = rest.dropFirst()
        case "inspect": return try SubcommandParser.inspect(Array(rest.dropFirst()))
        case "compare": return try SubcommandParser.compare(Array(rest.dropFirst()))
        case "status": return try SubcommandParser.status(Array(rest.dropFirst()))
        case "help": return try SubcommandParser.help(Array(rest.dropFirst()))
        case "version": return try SubcommandParser.version(Array(rest.dropFirst()))
        case "watch": return try watch(rest.dropFirst())
        default: break
        }
        // `--version` wins over convert's arguments, as `--help` does; only the
        // version's own options may go with it.
        if rest.prefix(while: { $0 != "--" }).contains("--version") { return try SubcommandParser.version(Array(rest)) }
        var watch: WatchRequest?
        return try scan(rest, options: options, watch: &watch)
    }

    /// `heic2jpg watch [OPTIONS] --state FILE DIR...`: convert's options over directories,
    /// and the watch's own.
    static func watch(_ rest: ArraySlice<String>) throws(UsageError) -> Command {
        var watch: WatchRequest? = WatchRequest(batch: BatchRequest())
        return try scan(rest, options: OptionTable.watch.map(\.spec), watch: &watch)
    }

    /// Convert's arguments (or, with `watch`, a watch's), scanned with `options`.
    private static func scan(_ rest: ArraySlice<String>, options: [OptionSpec], watch: inout WatchRequest?) throws(UsageError) -> Command {
        var request = BatchRequest()
        var scanner = ArgumentScanner(rest, options: options)
        var sawVerbose = false, sawQuiet = false, sawBase = false, template: NameTemplate?
        while let token = try scanner.next() {
            guard case .option(let option, let spelled, let value) = token else {
                if case .input(let input) = token { request.inputs.append(input) }
                continue
            }
            let label = option.label(spelled)
            let text = value ?? ""
            /// A path value where `-` means the standard stream.
            func endpoint() throws(UsageError) -> Endpoint {
                guard !text.isEmpty else { throw .invalidValue(text, for: label, "expected a path or '-'") }
                return text == "-" ? .standardStream : .path(text)
            }
            switch option.long {
            case "--help": return .help(watch == nil ? .convert : .watch)
            case "--settle":
                guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
                    throw .invalidValue(text, for: label, "expected seconds from 0 to 86400, such as 5")
                }
                watch?.settleSeconds = seconds
            case "--rescan":
                guard let seconds = Double(text), seconds >= 1, seconds <= 604_800 else {
                    throw .invalidValue(text, for: label, "expected seconds from 1 to 604800, such as 600")
                }
                watch?.rescanSeconds = seconds
            case "--temp-name":
                guard !text.isEmpty, !text.contains("/") else { throw .invalidValue(text, for: label, "expected a glob on a name, such as '*.upload'") }
                watch?.tempNames.append(text)
            case "--generate-man-page": return .manPage
            case "--generate-completion-script":
                guard let shell = CompletionShell(rawValue: text) else {
                    throw .invalidValue(text, for: label, "expected " + CompletionShell.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))
                }
                return .completionScript(shell)
            case "--output": request.output = try endpoint()
            case "--name":
                do { template = try NameTemplate(text) } catch { throw .invalidValue(text, for: label, error.description) }
            case "--quality":
                guard let quality = Int(text), (1...100).contains(quality) else { throw .invalidValue(text, for: label, "expected a whole number from 1 to 100") }
                request.options.quality = quality
            case "--jobs":
                guard let jobs = Int(text), (1...1024).contains(jobs) else { throw .invalidValue(text, for: label, "expected a whole number from 1 to 1024") }
                request.jobs = jobs
                request.jobsGiven = true
            case _ where outputOptions.contains(option.long): try outputChoice(option.long, text, label: label, into: &request.options)
            case _ where shapingOptions.contains(option.long): try shapingOption(option.long, text, label: label, into: &request.options)
            case "--strip-gps": request.options.stripGPS = true
            case "--no-mark": request.options.mark = false
            case "--overwrite": request.options.overwrite = true
            case "--on-conflict":
                guard let policy = ConflictPolicy(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'fail' or 'suffix'") }
                request.options.onConflict = policy
            case "--dry-run": request.options.dryRun = true
            case "--report": request.report = try endpoint()
            case "--background":
                guard let color = RGBColor(hex: text) else { throw .invalidValue(text, for: label, "expected a colour such as #ffffff") }
                request.options.background = color
            case "--max-pixels":
                let digits = text.hasSuffix("MP") ? text.dropLast(2) : text.hasSuffix("M") ? text.dropLast() : Substring(text)
                guard let megapixels = Int(digits), (1...ConversionOptions.maxMegapixels).contains(megapixels) else {
                    throw .invalidValue(text, for: label, "expected megapixels, a whole number from 1 to \(ConversionOptions.maxMegapixels)")
                }
                request.options.maxPixels = megapixels * 1_000_000
            case "--max-memory":
                guard let bytes = WorkerLimits.parseSize(text), bytes >= WorkerLimits.minimumMemoryBytes else {
                    throw .invalidValue(text, for: label, "expected a size of at least 64M, such as 2G or 512M")
                }
                request.maxMemory = bytes
            case "--timeout":
                guard let seconds = WorkerLimits.parseTimeout(text) else { throw .invalidValue(text, for: label, WorkerLimits.timeoutExpected) }
                request.timeoutSeconds = seconds
            case "--decoder":
                request.decoder = try decoder(text, label: label)
            case "--state":
                guard !text.isEmpty, text != "-" else { throw .invalidValue(text, for: label, "expected a file") }
                request.state = text
            case "--wait":
                guard let value else {
                    request.waitSeconds = .infinity
                    continue
                }
                guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                    throw .invalidValue(value, for: label, "expected seconds, such as 600")
                }
                request.waitSeconds = seconds
            case "--exclude":
                guard !text.isEmpty else { throw .invalidValue(text, for: label, "expected a glob such as '@eaDir' or '2019/raw'") }
                request.excludes = ExcludePatterns(request.excludes.patterns + [text])
            case "--shard":
                guard let shard = Shard(text) else {
                    throw .invalidValue(text, for: label, "expected K/N with 0 <= K < N, such as 0/4")
                }
                request.shard = shard
            case "--delete-source", "--move-source":
                guard request.handOff == nil else { throw UsageError(message: "'--delete-source' and '--move-source' cannot be used together") }
                if option.long == "--delete-source" {
                    request.handOff = .delete
                } else {
                    guard !text.isEmpty, text != "-" else { throw .invalidValue(text, for: label, "expected a directory") }
                    request.handOff = .move(to: text)
                }
            case "--recheck": request.recheck = true
            case "--files-from": request.filesFrom = try endpoint()
            case "--null": request.listSeparator = 0
            case "--base":
                guard !text.isEmpty else { throw .invalidValue(text, for: label, "expected a directory") }
                sawBase = true
                request.base = text
            case "--verbose":
                sawVerbose = true
                request.verbosity = .verbose
            case "--quiet":
                sawQuiet = true
                request.verbosity = .quiet
            default: throw .unknownOption(spelled, suggestion: nil) // a row of OptionTable.convert not handled here
            }
        }
        if sawBase && request.filesFrom == nil { throw UsageError(message: "'--base' goes with '--files-from'") }
        try nameOutputs(&request, template: template)
        if request.listSeparator == 0 && request.filesFrom == nil { throw UsageError(message: "'-0' ('--null') goes with '--files-from'") }
        try validate(request, verboseAndQuiet: sawVerbose && sawQuiet)
        guard var watching = watch else { return .convert(request) }
        try validateWatch(request)
        watching.batch = request
        return .watch(watching)
    }

    /// What a watch needs besides convert's rules: directories, and a state to remember by.
    static func validateWatch(_ request: BatchRequest) throws(UsageError) {
        guard request.state != nil else {
            throw UsageError(message: "'watch' needs '--state': it remembers there what it converted, across rescans and restarts")
        }
        if request.output == .standardStream {
            throw UsageError(message: "'watch' writes files: '-o -' is not one")
        }
        if case .file = request.naming { throw UsageError(message: "'watch' writes an output per file: '-o' names a directory") }
        for input in request.inputs where !Path.isDirectory(input) {
            throw UsageError(message: "'watch' takes directories; '\(input)' is not one")
        }
    }

    /// The options that choose which files a source's conversion writes and what they
    /// carry (`OutputChoices`): `inspect` takes them too, to show what would be written.
    static let outputOptions = Set(OptionTable.outputChoices.map(\.long))

    /// Sets one of `outputOptions` from its value.
    static func outputChoice(_ long: String, _ text: String, label: String, into options: inout ConversionOptions) throws(UsageError) {
        switch long {
        case "--metadata":
            guard let mode = MetadataMode(named: text) else { throw .invalidValue(text, for: label, "expected 'keep' or 'strip'") }
            options.metadata = mode
        case "--images":
            guard let images = ImageSelection(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'all' or 'primary'") }
            options.images = images
        case "--aux":
            var kinds: Set<AuxiliaryOutput> = []
            for token in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                switch token {
                case "none": continue
                case "all": kinds.formUnion(AuxiliaryOutput.allCases)
                default:
                    guard let kind = AuxiliaryOutput(rawValue: token) else {
                        throw .invalidValue(text, for: label, "expected a comma-separated list of depth, matte, gainmap, alpha (or all, none)")
                    }
                    kinds.insert(kind)
                }
            }
            options.auxiliaries = kinds
            options.auxiliariesChosen = true
        case "--hdr":
            guard let hdr = HDROutput(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'ultrahdr' or 'sdr'") }
            options.hdr = hdr
        case "--stereo":
            guard let layout = StereoLayout(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'mpo' or 'split'") }
            options.stereo = layout
        default: throw .unknownOption(long, suggestion: nil) // a row of OptionTable.outputChoices not handled here
        }
    }

    /// `--decoder`'s value, for convert and compare.
    static func decoder(_ text: String, label: String) throws(UsageError) -> TileDecoderChoice {
        guard let decoder = TileDecoderChoice(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'auto', 'avcodec-unchecked' or 'de265'") }
        return decoder
    }

    /// The options that shape each output's pixels and encoding (`OptionTable.shaping`).
    static let shapingOptions = Set(OptionTable.shaping.map(\.long))

    /// Sets one of `shapingOptions` from its value.
    static func shapingOption(_ long: String, _ text: String, label: String, into options: inout ConversionOptions) throws(UsageError) {
        switch long {
        case "--max-size":
            guard let box = OutputBox(text) else {
                throw .invalidValue(text, for: label, "expected N or WxH in pixels, each from 1 to \(OutputBox.maxSide), such as 2048 or 1920x1080")
            }
            options.maxSize = box
        case "--thumbnail": options.thumbnail = true
        case "--colorspace":
            guard let space = ColourSpaceChoice(rawValue: text) else { throw .invalidValue(text, for: label, "expected 'keep' or 'srgb'") }
            options.colorspace = space
        case "--progressive": options.progressive = true
        case "--optimize": options.optimize = true
        case "--sampling":
            guard let sampling = ChromaSubsampling(rawValue: text) else { throw .invalidValue(text, for: label, "expected '420', '422' or '444'") }
            options.sampling = sampling
        default: throw .unknownOption(long, suggestion: nil) // a row of OptionTable.shaping not handled here
        }
    }

    /// `-o FILE.jpg`, the peers' `IN OUT.jpg` (two operands, the second a `.jpg` or
    /// `.jpeg` name, not a directory) and `--name TEMPLATE`: how outputs are named
    /// (`OutputNaming`), and the combinations that cannot work. An existing directory
    /// named `x.jpg` stays an output root; an existing file is never taken as an input.
    static func nameOutputs(_ request: inout BatchRequest, template: NameTemplate?) throws(UsageError) {
        var file: String?
        if case .path(let path) = request.output, namesJPEG(path), !Path.isDirectory(path) {
            (file, request.output) = (path, nil)
        } else if request.output == nil, request.filesFrom == nil, request.inputs.count == 2, namesJPEG(request.inputs[1]) {
            // A file already there is the output too, never an input: the ownership rules
            // keep it unless it is this source's own (a rerun skips it, `--overwrite`
            // replaces it). A directory stays an input.
            if !Path.isDirectory(request.inputs[1]) { file = request.inputs.removeLast() }
        }
        if let file {
            if template != nil { throw UsageError(message: "'--name' names the outputs of many sources; the output file '\(file)' is named already") }
            if request.filesFrom != nil { throw UsageError(message: "the output file '\(file)' takes one input; '--files-from' lists many") }
            guard request.inputs.count == 1 else { throw UsageError(message: "the output file '\(file)' takes exactly one input, not \(request.inputs.count)") }
            if request.inputs[0] != "-", Path.isDirectory(request.inputs[0]) {
                throw UsageError(message: "the output file '\(file)' takes one input file; '\(request.inputs[0])' is a directory (for an output directory named so, end it with '/')")
            }
            request.naming = .file(file)
        }
        guard let template else { return }
        if request.output == .standardStream { throw UsageError(message: "'--name' names files; '-o -' writes to stdout") }
        if request.inputs.contains("-") { throw UsageError(message: "'--name' names outputs after their source file, and stdin ('-') has none") }
        if !template.namesSource {
            let one = request.filesFrom == nil && request.inputs.count == 1 && !Path.isDirectory(request.inputs[0])
            guard one else {
                throw UsageError(message: "'--name \(template)' gives every source the same name; put {stem} or {name} in it")
            }
            if template.expand(Path.lastComponent(request.inputs[0])).isEmpty {
                throw UsageError(message: "'--name \(template)' gives '\(request.inputs[0])' an empty name")
            }
        }
        request.naming = .template(template)
    }

    /// A path whose name ends in `.jpg` or `.jpeg`, in any case.
    static func namesJPEG(_ path: String) -> Bool {
        let name = Path.lastComponent(path).lowercased()
        return !path.hasSuffix("/") && (name.hasSuffix(".jpg") || name.hasSuffix(".jpeg"))
    }

    /// Rules that involve several options.
    static func validate(_ request: BatchRequest, verboseAndQuiet: Bool) throws(UsageError) {
        if request.recheck && request.state == nil { throw UsageError(message: "'--recheck' goes with '--state'") }
        if request.handOff != nil {
            guard request.state != nil else {
                throw UsageError(message: "'--delete-source' and '--move-source' need '--state': originals are handed off only when the state records their verified outputs")
            }
            if request.options.dryRun { throw UsageError(message: "'--dry-run' hands nothing off; drop '--delete-source'/'--move-source'") }
            if !request.decoder.meetsStrictPolicy {
                throw UsageError(message: "'--decoder \(request.decoder.rawValue)' may convert damaged tiles into wrong pixels, so it hands off no original; drop '--delete-source'/'--move-source' or the '--decoder'")
            }
            if request.output == .standardStream || request.inputs.contains("-") {
                throw UsageError(message: "'--delete-source' and '--move-source' need files in and files out, not '-'")
            }
        }
        if let list = request.filesFrom {
            guard request.inputs.isEmpty else {
                throw UsageError(message: "'--files-from' lists the inputs: give no '<input>' besides it")
            }
            if list == .standardStream && request.report == .standardStream {
                throw UsageError(message: "'--files-from -' and '--report -' cannot both use the standard streams")
            }
            if request.output == .standardStream { throw UsageError(message: "'-o -' writes one JPEG; '--files-from' lists many") }
            if !Path.isDirectory(request.base) { throw UsageError(message: "'--base \(request.base)' is not a directory") }
        } else if request.inputs.isEmpty {
            throw UsageError(message: "Missing expected argument '<input> ...'")
        }
        if verboseAndQuiet { throw UsageError(message: "'--verbose' and '--quiet' cannot be used together") }
        if request.options.thumbnail && request.options.maxSize == nil { throw UsageError(message: "'--thumbnail' goes with '--max-size'") }
        if request.inputs.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "'-' (stdin) can be given only once") }
        if request.inputs.contains("-") && request.output == nil && request.naming == .template(.standard) {
            throw UsageError(message: "Reading from stdin ('-') needs '--output <dir>' or '-o -' for stdout")
        }
        if request.output == .standardStream {
            guard request.inputs.count == 1 else { throw UsageError(message: "'-o -' writes one JPEG to stdout, so it takes exactly one input") }
            if Path.isDirectory(request.inputs[0]) {
                throw UsageError(message: "'-o -' writes one JPEG to stdout, so its input must be a file; '\(request.inputs[0])' is a directory")
            }
            if request.report == .standardStream { throw UsageError(message: "'-o -' and '--report -' cannot both use stdout") }
        }
        if case .path(let report) = request.report, let refusal = ReportFileCheck.refusal(report, inputs: request.inputs) {
            throw UsageError(message: "--report: \(refusal)")
        }
    }
}
