import H2JJPEG
import H2JJob
import H2JMetadata
import H2JOutputPlan
import H2JBatch
import H2JConvert
import H2JJPEGCodec

/// What an option's value may be: the help, the man page and the completion scripts all
/// say it from here, and completions offer exactly these values or paths.
enum OptionValue: Sendable, Equatable {
    /// A flag: no value.
    case none
    /// Exactly one of these words.
    case choice([String])
    /// A comma-separated list of `items`, or one of `alone` by itself (`--aux all`).
    case list(items: [String], alone: [String])
    case file
    case directory
    /// Anything else (numbers, sizes, colours): completions offer nothing.
    case text
}

/// One row of the option table: how the scanner reads the option (`spec`), what it
/// takes, the help sentence and the default. The parsers take their options from here,
/// so what `--help`, the man page and the completions list is what the parser accepts.
struct OptionEntry: Sendable {
    let spec: OptionSpec
    let value: OptionValue
    let help: String
    let defaultValue: String?
    /// The one-line description the completions show, where the help's first clause is
    /// not one (it starts with a list of values, or leans on the row before); nil: taken
    /// from the help (`CompletionScript.shortDescription`).
    let summary: String?

    init(_ long: String, _ short: Character? = nil, _ valueName: String? = nil, optional: Bool = false,
         _ value: OptionValue = .none, help: String, default defaultValue: String? = nil, summary: String? = nil) {
        self.spec = OptionSpec(long, short, value: valueName, optional: optional)
        self.value = value
        self.help = help
        self.defaultValue = defaultValue
        self.summary = summary
    }

    var long: String { spec.long }

    /// `-o`, `--output`: every name the option answers to.
    var names: [String] { (spec.short.map { ["-\($0)"] } ?? []) + [spec.long] }

    /// How help and man page head its row: `-o, --output <dir>`, `--wait[=<seconds>]`.
    var label: String { spec.label(names.joined(separator: ", ")) }

    /// The help sentence with the allowed values and the default appended, as
    /// swift-argument-parser appends them: `… (values: keep, strip; default: keep)`.
    var fullHelp: String {
        var notes: [String] = []
        switch value {
        case .choice(let words): notes.append("values: " + words.joined(separator: ", "))
        case .list(let items, let alone):
            notes.append("values: a comma-separated list of " + items.joined(separator: ", ") + ", or " + alone.joined(separator: ", "))
        default: break
        }
        if let defaultValue { notes.append("default: " + defaultValue) }
        return notes.isEmpty ? help : help + " (" + notes.joined(separator: "; ") + ")"
    }
}

/// The option table of every command, in the order help lists them.
enum OptionTable {
    /// The defaults shown are the parser's own.
    private static let defaults = ConversionOptions()

    static let help = OptionEntry("--help", "h", help: "Show help information.")

    static let json = OptionEntry("--json", help: "Print one JSON array.")

    static let quality = OptionEntry("--quality", "q", "<1-100>", .text, help: "JPEG quality.", default: String(defaults.quality))

    /// The options that choose which files a source's conversion writes and what they
    /// carry (`OutputChoices`): `inspect` takes them too, to show what would be written.
    static let outputChoices: [OptionEntry] = [
        OptionEntry("--metadata", nil, "<mode>", .choice(MetadataMode.allCases.map(\.rawValue)),
                    help: "keep: EXIF, XMP and ICC are grafted (Orientation set to 1); strip: pixels and ICC only, and the mark names no file (the older names lossless-metadata and lossy are accepted).",
                    default: defaults.metadata.rawValue, summary: "Metadata mode, keep or strip"),
        OptionEntry("--images", nil, "<which>", .choice(ImageSelection.allCases.map(\.rawValue)),
                    help: "all: every photo a file holds becomes a JPEG, the primary as NAME.jpg, the others as NAME-2.jpg, NAME-3.jpg, … (collections, bursts, stereo pairs); primary: the primary alone, the others named in a warning.",
                    default: defaults.images.rawValue, summary: "Which photos of a file become JPEGs, all or the primary"),
        OptionEntry("--hdr", nil, "<output>", .choice(HDROutput.allCases.map(\.rawValue)),
                    help: "A source with an HDR gain map (iPhone, Samsung, ISO 21496-1): ultrahdr writes an Ultra HDR JPEG (the SDR image, then its gain map, with Adobe's and ISO's metadata), in keep mode; sdr writes the SDR image only.",
                    default: defaults.hdr.rawValue, summary: "What a source with an HDR gain map becomes, Ultra HDR or SDR only"),
        OptionEntry("--aux", nil, "<kinds>", .list(items: AuxiliaryOutput.allCases.map(\.rawValue), alone: ["all", "none"]),
                    help: "Also write auxiliary images as grayscale JPEGs with the XMP that describes them: NAME.depth.jpg, NAME.matte.jpg, NAME.gainmap.jpg, NAME.alpha.jpg.",
                    default: "none"),
        OptionEntry("--stereo", nil, "<layout>", .choice(StereoLayout.allCases.map(\.rawValue)),
                    help: "A stereo pair ('ster' group): mpo writes one Multi-Picture file, left eye first (MP type disparity); split writes NAME-left.jpg and NAME-right.jpg.",
                    default: defaults.stereo.rawValue, summary: "What a stereo pair becomes, one MPO or two JPEGs"),
    ]

    /// The options that shape each output's pixels and encoding: `compare` takes them too,
    /// so the two metadata modes can be compared at several sizes and qualities.
    static let shaping: [OptionEntry] = [
        OptionEntry("--max-size", nil, "<N|WxH>", .text,
                    help: "Fit every output within N×N or W×H pixels, aspect ratio kept, never enlarged (Lanczos-3, in bands); gain maps and auxiliary images scale with it.",
                    default: "the source's size"),
        OptionEntry("--thumbnail",
                    help: "For previews: start from the embedded thumbnail when it is at least --max-size and has the primary's shape; otherwise scale the primary."),
        OptionEntry("--colorspace", nil, "<space>", .choice(ColourSpaceChoice.allCases.map(\.rawValue)),
                    help: "keep: the source's colours and ICC profile; srgb: convert to sRGB (LittleCMS, relative colorimetric with black-point compensation).",
                    default: defaults.colorspace.rawValue, summary: "Output colours, the source's or sRGB"),
        OptionEntry("--progressive", help: "Write progressive JPEG (SOF2); needs memory for every coefficient of the image."),
        OptionEntry("--optimize", help: "Optimise the Huffman tables for each image (smaller files); needs memory for every coefficient of the image."),
        OptionEntry("--sampling", nil, "<chroma>", .choice(ChromaSubsampling.allCases.map(\.rawValue)),
                    help: "Chroma subsampling of a photo's colour output: 420, 422 or 444 (keeps a 4:4:4 or 4:2:2 source's chroma).",
                    default: defaults.sampling.rawValue),
    ]

    static let convert: [OptionEntry] = [
        OptionEntry("--output", "o", "<dir>", .directory,
                    help: "Output root; outputs mirror the input tree. A name ending in .jpg or .jpeg that is not a directory is the one output file of one input (its other images beside it: NAME-2.jpg, …). '-' writes the JPEG to stdout (one input only).",
                    default: "next to each source"),
        OptionEntry("--name", nil, "<template>", .text,
                    help: "The output's name before .jpg: {stem} (IMG_1234), {name} (IMG_1234.HEIC), {ext} (HEIC, no dot), {n} (the image number, 1 for the primary). Without {n} other images get -2, -3, …; with it each image is named by its number.",
                    default: "{stem}", summary: "The output's name before .jpg, a template of {stem}, {name}, {ext}, {n}"),
        quality,
        OptionEntry("--jobs", "j", "<n>", .text, help: "Files converted in parallel.", default: "the CPUs this process may use (affinity, cgroup quota)"),
        outputChoices[0],
        OptionEntry("--strip-gps", help: "In keep mode, remove the GPS IFD and the XMP GPS properties (location privacy)."),
        OptionEntry("--no-mark", help: "Do not write the provenance mark (XMP h2j: source name (not in strip mode) and SHA-256, mode, quality, version; EXIF ImageUniqueID in keep mode)."),
        OptionEntry("--overwrite", help: "Replace outputs heic2jpg wrote earlier for the same source instead of skipping them. Any other file is never replaced."),
    ] + outputChoices.dropFirst() + shaping + [
        OptionEntry("--on-conflict", nil, "<policy>", .choice(ConflictPolicy.allCases.map(\.rawValue)),
                    help: "When a file heic2jpg did not write is at the output path: fail (the source fails, naming it) or suffix (write NAME-1.jpg, NAME-2.jpg, … beside it).",
                    default: defaults.onConflict.rawValue, summary: "When a file heic2jpg did not write is at the output path, fail or suffix"),
        OptionEntry("--dry-run", help: "Report what would be done; write nothing."),
        OptionEntry("--report", nil, "<file>", .file, help: "Write a JSON Lines report, one object per input plus a summary; '-' for stdout."),
        OptionEntry("--background", nil, "<#rrggbb>", .text, help: "Colour transparent pixels are flattened onto.", default: defaults.background.description),
        OptionEntry("--max-pixels", nil, "<MP>", .text,
                    help: "Refuse images with more megapixels than this after rotation and cropping (decompression bombs).",
                    default: String(defaults.maxPixels / 1_000_000)),
        OptionEntry("--max-memory", nil, "<size>", .text,
                    help: "Memory each decoder process may use, such as 2G or 512M; a file that needs more fails alone.",
                    default: "from --max-pixels, 2.4G for 256 MP; within a cgroup memory limit, the limit over the jobs"),
        OptionEntry("--timeout", nil, "<seconds>", .text,
                    help: "Time one file may take before its decoder is stopped and the file fails; 0 for none.", default: "120"),
        decoder,
        OptionEntry("--state", nil, "<file>", .file,
                    help: "Remember every source in this SQLite database: a rerun converts only what changed (reported updated), and reports vanished sources (missing-source). One run at a time holds it."),
        OptionEntry("--wait", nil, "<seconds>", optional: true, .text,
                    help: "When another run holds the lock, wait for it (for ever, or this long) instead of exiting at once."),
        OptionEntry("--recheck", help: "With --state: check every page of the state, and re-hash sources and outputs before calling them up to date."),
        OptionEntry("--files-from", nil, "<file>", .file,
                    help: "Read the sources from this list ('-': stdin), one path per line, relative to --base; outputs mirror those paths. Directories in it are ignored."),
        OptionEntry("--null", "0", help: "The list is NUL-separated (find -print0)."),
        OptionEntry("--base", nil, "<dir>", .directory, help: "What listed paths are relative to.", default: "."),
        OptionEntry("--exclude", nil, "<pattern>", .text,
                    help: "Leave out what matches this glob, relative to its input: without '/', any file or directory name at any depth ('@eaDir', '*.tmp'); with '/', the path from the input ('2019/raw'). A directory that matches is left out whole. Repeatable; --dry-run shows what it left out.",
                    summary: "Leave out files and directories matching this glob (repeatable)"),
        OptionEntry("--shard", nil, "<k/n>", .text,
                    help: "Convert only shard K of N (0 <= K < N) by a stable hash of each path; '{shard}' in --state becomes K."),
        OptionEntry("--delete-source",
                    help: "With --state: delete each original once its outputs are re-read, decoded, recorded and synced, and only when they carry all of it."),
        OptionEntry("--move-source", nil, "<dir>", .directory, help: "The same, moving originals under <dir> instead.",
                    summary: "With --state, move each original under <dir> once its outputs are proven"),
        OptionEntry("--verbose", "v", help: "Print one line per input and the engine that ran, and every warning (normally one line per kind)."),
        OptionEntry("--quiet", help: "Print errors only, then the summary line if the run failed; a clean run prints nothing."),
        OptionEntry("--generate-man-page", help: "Print the manual page, heic2jpg.1, in roff."),
        OptionEntry("--generate-completion-script", nil, "<shell>", .choice(CompletionShell.allCases.map(\.rawValue)),
                    help: "Print the completion script for this shell."),
        OptionEntry("--version", help: "Show the version; -v or --json adds the C libraries."),
        help,
    ]

    /// `watch`: convert's options for directories (no list, no stdin, no dry run, no
    /// one-off commands), and how the watch waits.
    static let watch: [OptionEntry] = convert.filter { !notWatched.contains($0.long) } + [
        OptionEntry("--settle", nil, "<seconds>", .text,
                    help: "Take a file once it has stayed unchanged (size, mtime, ctime) this long after it was written or moved in.",
                    default: String(Int(WatchRequest.defaultSettleSeconds))),
        OptionEntry("--rescan", nil, "<seconds>", .text,
                    help: "Also walk every directory again this often, for changes that give no events (NFS and SMB written from other machines); SIGHUP walks at once.",
                    default: "none; 300 on a network file system"),
        OptionEntry("--temp-name", nil, "<glob>", .text,
                    help: "Another name uploaders write under until a file is complete (besides *.part, .*.tmp, ~syncthing~*.tmp, .~tmp~, rsync's .*.??????); repeatable.",
                    summary: "Another uploader's temp name to pass over until renamed (repeatable)"),
    ]

    /// Convert's options a watch does not take.
    private static let notWatched: Set<String> = ["--files-from", "--null", "--base", "--dry-run", "--wait", "--generate-man-page",
                                                  "--generate-completion-script", "--version"]

    static let inspect: [OptionEntry] = [
        json,
        OptionEntry("--source", nil, "<file>", .file,
                    help: "Check that each file's provenance mark names this file's SHA-256 (exit 1 when one does not or a file has no mark)."),
    ] + outputChoices.map {
        OptionEntry($0.spec, $0.value, help: "As for convert, to plan the outputs shown: " + $0.help, default: $0.defaultValue,
                    summary: (CompletionScript.description(of: $0)) + ", as for convert")
    } + [help]

    /// `--decoder`, for convert and compare.
    static let decoder = OptionEntry("--decoder", nil, "<name>", .choice(TileDecoderChoice.allCases.map(\.rawValue)),
                                     help: "HEVC decoder of the tile engine, chosen by safety first: auto takes libde265, which fails every damaged tile it is tested on; avcodec-unchecked (FFmpeg, loaded when installed) is faster but decodes some damaged tiles to wrong pixels, and is refused with --delete-source/--move-source. Intact files give the same JPEGs.",
                                     default: TileDecoderChoice.defaultChoice.rawValue)

    static let compare: [OptionEntry] = [
        json,
        OptionEntry("--html", nil, "<file>", .file,
                    help: "Also write one self-contained HTML page: each source beside its outputs, crops at 1:1 zoomed in step, a heat map of the differences, and every EXIF, XMP and ICC tag in each mode, location tags called out."),
        OptionEntry("--quality", "q", "<q,...>", .text, help: "JPEG qualities, each converted in both modes.", default: String(defaults.quality)),
    ] + shaping.map {
        $0.long == "--max-size"
            ? OptionEntry("--max-size", nil, "<box,...>", .text, help: "Boxes as for convert (N or WxH), each converted at each quality in both modes.",
                          default: "the source's size", summary: "Fit within each of these boxes (N or WxH), as convert's --max-size")
            : $0
    } + [
        OptionEntry("--timeout", nil, "<seconds>", .text,
                    help: "Time one conversion or decode may take before its decoder is stopped and the file fails; 0 for none.",
                    default: "120"),
        decoder,
        help,
    ]

    static let status: [OptionEntry] = [
        OptionEntry("--json", help: "Print one JSON object."),
        OptionEntry("--html", nil, "<file>", .file,
                    help: "Also write one self-contained HTML page: sources by status, each run charted, failures grouped by code, kept sources, the last run's throughput."),
        OptionEntry("--state", nil, "<file>", .file, help: "A state file, as an argument would name it; repeatable."),
        help,
    ]

    static let version: [OptionEntry] = [
        OptionEntry("--verbose", "v", help: "Add a line for each C library, with the version loaded at run time."),
        OptionEntry("--json", help: "Print the version and the libraries as one JSON object."),
        help,
    ]
}

extension OptionEntry {
    /// The same option with another help sentence (a subcommand's reading of it).
    init(_ spec: OptionSpec, _ value: OptionValue, help: String, default defaultValue: String?, summary: String?) {
        self.spec = spec
        self.value = value
        self.help = help
        self.defaultValue = defaultValue
        self.summary = summary
    }
}
