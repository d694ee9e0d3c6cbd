/// Everything help and the man page say about one command: its overview, synopsis,
/// arguments, options (from `OptionTable`) and exit codes. The texts are written once,
/// here; `HelpText` and `ManPage` only lay them out.
struct CommandDescription: Sendable {
    /// `convert`, `inspect`, …: the word after `heic2jpg`.
    let name: String
    /// One sentence: the SUBCOMMANDS list and the man page's NAME line.
    let abstract: String
    /// The synopsis after `heic2jpg`.
    let synopsis: String
    /// Paragraphs after the abstract.
    let discussion: [String]
    let arguments: [(label: String, help: String)]
    let options: [OptionEntry]
    let exitCodes: [(code: String, meaning: String)]

    /// A subcommand's synopsis from its options: `compare [--json] [-q <1-100>] <file> ...`
    /// (the short name where there is one; `--help` left out).
    init(subcommand name: String, abstract: String, discussion: [String], argument: (label: String, help: String),
         options: [OptionEntry], exitCodes: [(code: String, meaning: String)]) {
        let shown = options.filter { $0.long != OptionTable.help.long }
            .map { "[" + $0.spec.label($0.spec.short.map { "-\($0)" } ?? $0.long) + "]" }
        self.init(name: name, abstract: abstract, synopsis: ([name] + shown + [argument.label + " ..."]).joined(separator: " "),
                  discussion: discussion, arguments: [argument], options: options, exitCodes: exitCodes)
    }

    init(name: String, abstract: String, synopsis: String, discussion: [String], arguments: [(label: String, help: String)],
         options: [OptionEntry], exitCodes: [(code: String, meaning: String)]) {
        self.name = name
        self.abstract = abstract
        self.synopsis = synopsis
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.exitCodes = exitCodes
    }

    static let usageError = (code: "64", meaning: "usage error")
    /// EX_UNAVAILABLE, before any work (`CommandLineTool.exitUnavailable`).
    static let unavailable = (code: "69", meaning: "--decoder avcodec-unchecked where libavcodec does not load; nothing done")

    static let convert = CommandDescription(
        name: "convert",
        abstract: "Convert HEIF/HEIC/AVIF images to JPEG: upright pixels, correct colour, metadata kept.",
        synopsis: "[convert] [<options>] <input> ...",
        discussion: ["Inputs are chosen by content (the 'ftyp' brands), never by file name. Directories are walked recursively; symlinked directories are not followed."],
        arguments: [("<input>", "Files or directories to convert; '-' reads one image from stdin. 'IN OUT.jpg' (two operands, the second a .jpg or .jpeg name that is not a directory) converts IN to OUT.jpg, as '-o OUT.jpg'; a file already there is never an input.")],
        options: OptionTable.convert,
        exitCodes: [
            ("0", "nothing failed"),
            ("1", "at least one input failed (see the per-file errors)"),
            usageError,
            unavailable,
            ("73", "--state or --report cannot be created or opened (not for want of space); nothing done"),
            ("74", "-o - (or --report -) with standard output closed or read-only"),
            ("75", "a resource ran out (disk full, quota, file size limit): retry later"),
            ("128+N", "ended by signal N (129 SIGHUP, 130 SIGINT, 141 SIGPIPE, 143 SIGTERM); temp files removed"),
        ])

    static let watch = CommandDescription(
        name: "watch",
        abstract: "Convert photos as they arrive in directories: a first full pass, then each file once it has settled.",
        synopsis: "watch [<options>] --state <file> <dir> ...",
        discussion: [
            "Every directory below each <dir> is watched (inotify), new ones as they appear. A file is taken once it has stayed unchanged for --settle seconds after it was closed or moved in; uploaders' temp names are passed over until renamed, so an upload that never completes is never converted. A queue overflow, SIGHUP, --rescan or a watch limit reached walks every directory again; the state tells what is done. One JSON line per file on --report; a summary line on stderr every hour and on SIGUSR1. SIGTERM or SIGINT ends it within 5 seconds, abandoning files under way (temp files removed; they convert on the next start), exit 0. Under systemd (Type=notify) it says READY=1 once watching.",
        ],
        arguments: [("<dir>", "Directories to watch (recursively).")],
        options: OptionTable.watch,
        exitCodes: [
            ("0", "stopped by SIGTERM or SIGINT"),
            usageError,
            unavailable,
            ("73", "--state or --report cannot be created or opened, or inotify cannot be had; nothing done"),
            ("75", "a resource ran out (disk full, quota): restart later"),
        ])

    static let inspect = CommandDescription(
        subcommand: "inspect",
        abstract: "Describe HEIF and JPEG files without decoding them, and the files a conversion would write.",
        discussion: [
            "Every image (thumbnails, alpha, depth, gain maps, tmap items and their inputs), entity groups (stereo pairs, alternatives, bursts, albums), sequence tracks, the tmap gain map and whether it is honoured, bit depth, chroma, ICC or nclx colour, orientation, key EXIF and GPS fields, XMP and ICC sizes, and the heic2jpg provenance mark. Of a HEIF file, the files a conversion with the output options would write (names, kinds, the images they hold, Ultra HDR and its gain map) and what they would leave out.",
        ],
        argument: ("<file>", "HEIF or JPEG files."),
        options: OptionTable.inspect,
        exitCodes: [
            ("0", "every file was described (and matched --source)"),
            ("1", "a file could not be read, or did not match --source"),
            usageError,
        ])

    static let compare = CommandDescription(
        subcommand: "compare",
        abstract: "Convert each file in both metadata modes, in memory, and print them side by side.",
        discussion: [
            "Nothing is saved. Each quality (-q 80,90) and size (--max-size 1024,2048) asked is converted in both modes; the other shaping options apply to every output. For each output: its options and size, bytes, milliseconds, engine, EXIF tags kept and dropped, GPS, maker note, XMP, ICC, and Y-PSNR against the decoded source, reduced by the same filter for a smaller output ('inf' when identical; null in JSON). Decodes whole images (about 6 bytes per pixel), in a decoder process: a file that crashes or hangs it fails alone.",
        ],
        argument: ("<file>", "HEIF files."),
        options: OptionTable.compare,
        exitCodes: [
            ("0", "every file converted in both modes"),
            ("1", "a file failed"),
            usageError,
            unavailable,
        ])

    static let status = CommandDescription(
        subcommand: "status",
        abstract: "Tell what --state files record, merged: sources by status, failures, bytes, hand-offs, last runs.",
        discussion: [
            "The states merged are the shards of one migration. Each failure is listed with its code and reason, then the bytes of sources and outputs, what was handed off, the shards, and the last runs. Read-only.",
        ],
        argument: ("<state>", "State files written by 'heic2jpg --state'."),
        options: OptionTable.status,
        exitCodes: [
            ("0", "no failure is recorded, every shard of N has a state, and each state's latest run ended (exit 0 or 1)"),
            ("1", "a failure is recorded; or sources may remain that no run met (a shard without a state, a latest run unfinished or stopped by exit 75 or a signal); or a state could not be read"),
            usageError,
        ])

    static let version = CommandDescription(
        name: "version",
        abstract: "Print heic2jpg's version; with --verbose or --json, the C libraries loaded at run time too.",
        synopsis: "version [--verbose] [--json]",
        discussion: ["heic2jpg --version takes the same options. One line per library: libheif, libde265, libavcodec (or why it is not loaded), libjpeg-turbo, LittleCMS, SQLite, libcrypto, zlib, Brotli, libseccomp, as loaded, for a bug report."],
        arguments: [],
        options: OptionTable.version,
        exitCodes: [
            ("0", "the version was printed"),
            usageError,
        ])

    /// The subcommands, in the order help lists them.
    static let subcommands: [CommandDescription] = [compare, inspect, status, version, watch]

    /// The description of `topic`'s command.
    static func of(_ topic: HelpTopic) -> CommandDescription {
        switch topic {
        case .convert: convert
        case .inspect: inspect
        case .compare: compare
        case .status: status
        case .version: version
        case .watch: watch
        }
    }
}
