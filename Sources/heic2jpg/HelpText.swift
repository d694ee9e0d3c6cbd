/// The help and usage texts, laid out like swift-argument-parser's.
package enum HelpText {
    package static let usage = "heic2jpg [convert] [<options>] <input> ..."

    /// The help of `topic`: `heic2jpg --help` (or `help`) is the program's overview.
    package static func help(_ topic: HelpTopic) -> String {
        switch topic {
        case .convert: help
        case .inspect: inspectHelp
        case .compare: compareHelp
        case .status: statusHelp
        }
    }

    package static let help = """
    OVERVIEW: Convert HEIF/HEIC/AVIF images to JPEG: upright pixels, correct colour, \
    metadata kept.

    Inputs are chosen by content (the 'ftyp' brands), never by file name. Directories
    are walked recursively; symlinked directories are not followed.

    USAGE: \(usage)

    ARGUMENTS:
      <input>                 Files or directories to convert; '-' reads one image
                              from stdin.

    OPTIONS:
      -o, --output <dir>      Output root; outputs mirror the input tree. '-' writes
                              the JPEG to stdout (one input only). (default: next to
                              each source)
      -q, --quality <1-100>   JPEG quality. (default: 90)
      -j, --jobs <n>          Files converted in parallel. (default: number of CPUs)
      --metadata <mode>       keep: EXIF, XMP and ICC are grafted (Orientation set to
                              1); strip: pixels and ICC only. (values: keep, strip;
                              default: keep)
      --strip-gps             In keep mode, remove the GPS IFD and the XMP GPS
                              properties (location privacy).
      --no-mark               Do not write the provenance mark (XMP h2j:
                              source name and SHA-256, mode, quality, version;
                              EXIF ImageUniqueID in keep mode).
      --overwrite             Replace outputs heic2jpg wrote earlier for the same
                              source instead of skipping them. Any other file is
                              never replaced.
      --images <which>        all: every photo a file holds becomes a JPEG, the
                              primary as NAME.jpg, the others as NAME-2.jpg,
                              NAME-3.jpg, … (collections, bursts, stereo pairs);
                              primary: the primary alone, the others named in a
                              warning. (values: all, primary; default: all)
      --hdr <output>          A source with an HDR gain map (iPhone, Samsung, ISO
                              21496-1): ultrahdr writes an Ultra HDR JPEG (the SDR
                              image, then its gain map, with Adobe's and ISO's
                              metadata), in keep mode; sdr writes the SDR image
                              only. (values: ultrahdr, sdr; default: ultrahdr)
      --aux <kinds>           Also write auxiliary images as grayscale JPEGs with
                              the XMP that describes them: NAME.depth.jpg,
                              NAME.matte.jpg, NAME.gainmap.jpg, NAME.alpha.jpg.
                              (values: a comma-separated list of depth, matte,
                              gainmap, alpha; all; none. default: none)
      --stereo <layout>       A stereo pair ('ster' group): mpo writes one
                              Multi-Picture file, left eye first (MP type
                              disparity); split writes NAME-left.jpg and
                              NAME-right.jpg. (values: mpo, split; default: mpo)
      --on-conflict <policy>  When a file heic2jpg did not write is at the output
                              path: fail (the source fails, naming it) or suffix
                              (write NAME-1.jpg, NAME-2.jpg, … beside it).
                              (values: fail, suffix; default: fail)
      --dry-run               Report what would be done; write nothing.
      --report <file>         Write a JSON Lines report, one object per input plus a
                              summary; '-' for stdout.
      --background <#rrggbb>  Colour transparent pixels are flattened onto. (default:
                              #ffffff)
      --max-pixels <MP>       Refuse images with more megapixels than this after
                              rotation and cropping (decompression bombs).
                              (default: 256)
      --max-memory <size>     Memory each decoder process may use, such as 2G or
                              512M; a file that needs more fails alone.
                              (default: from --max-pixels, 2.4G for 256 MP)
      --timeout <seconds>     Time one file may take before its decoder is
                              stopped and the file fails; 0 for none.
                              (default: 120)
      --state <file>          Remember every source in this SQLite database: a
                              rerun converts only what changed (reported
                              updated), and reports vanished sources
                              (missing-source). One run at a time holds it.
      --wait[=<seconds>]      When another run holds the lock, wait for it (for
                              ever, or this long) instead of exiting at once.
      --recheck               With --state: re-hash sources and outputs before
                              calling them up to date.
      --files-from <file>     Read the sources from this list ('-': stdin), one
                              path per line, relative to --base; outputs mirror
                              those paths. Directories in it are ignored.
      -0, --null              The list is NUL-separated (find -print0).
      --base <dir>            What listed paths are relative to. (default: .)
      --shard <k/n>           Convert only shard K of N (0 <= K < N) by a stable hash
                              of each path; '{shard}' in --state becomes K.
      --delete-source         With --state: delete each original once its outputs
                              are re-read, decoded, recorded and synced, and only
                              when they carry all of it.
      --move-source <dir>     The same, moving originals under <dir> instead.
      -v, --verbose           Print one line per input and the engine that ran, and
                              every warning (normally one line per kind).
      --quiet                 Print errors only, then the summary line if the run
                              failed; a clean run prints nothing.
      --version               Show the version; -v or --json adds the C libraries.
      -h, --help              Show help information.

    SUBCOMMANDS (heic2jpg help <subcommand> for each one's help):
      compare [--json] [-q <1-100>] [--timeout <seconds>] <file> ...
                              Convert each file in both modes, in memory, and
                              print them side by side.
      inspect [--json] [--source <file>] [<output options>] <file> ...
                              Describe HEIF and JPEG files without decoding them,
                              and the files a conversion would write.
      status [--json] <state> ...
                              What --state files record, merged: sources by
                              status, failures, bytes, hand-offs, last runs.

    EXIT CODES:
      0   nothing failed
      1   at least one input failed (see the per-file errors)
      64  usage error
      74  -o - (or --report -) with standard output closed or read-only
      75  a resource ran out (disk full, quota, file size limit): retry later

    """

    package static let inspectHelp = """
    OVERVIEW: Describe HEIF and JPEG files without decoding them.

    Every image (thumbnails, alpha, depth, gain maps, tmap items and their inputs),
    entity groups (stereo pairs, alternatives, bursts, albums), sequence tracks, the
    tmap gain map and whether it is honoured, bit depth, chroma, ICC or nclx colour,
    orientation, key EXIF and GPS fields, XMP and ICC sizes, and the heic2jpg
    provenance mark. Of a HEIF file, the files a conversion with the output options
    would write (names, kinds, the images they hold, Ultra HDR and its gain map) and
    what they would leave out.

    USAGE: heic2jpg inspect [--json] [--source <file>] [--images <which>]
                            [--stereo <layout>] [--aux <kinds>] [--hdr <output>]
                            [--metadata <mode>] <file> ...

    ARGUMENTS:
      <file>                  HEIF or JPEG files.

    OPTIONS:
      --json                  Print one JSON array.
      --source <file>         Check that each file's provenance mark names this
                              file's SHA-256 (exit 1 when one does not or a file
                              has no mark).
      --images, --stereo, --aux, --hdr, --metadata
                              As for convert: plan the outputs shown with them.
                              (default: convert's defaults)
      -h, --help              Show help information.

    EXIT CODES:
      0   every file was described (and matched --source)
      1   a file could not be read, or did not match --source
      64  usage error

    """

    package static let statusHelp = """
    OVERVIEW: Tell what one or more --state files record, merged (the shards of one
    migration): sources by status, each failure with its code and reason, bytes of
    sources and outputs, what was handed off, the shards, and the last runs. Read-only.

    USAGE: heic2jpg status [--json] <state> ...

    ARGUMENTS:
      <state>                 State files written by 'heic2jpg --state'.

    OPTIONS:
      --json                  Print one JSON object.
      -h, --help              Show help information.

    EXIT CODES:
      0   no failure is recorded, every shard of N has a state, and each state's
          latest run ended (exit 0 or 1)
      1   a failure is recorded; or sources may remain that no run met (a shard
          without a state, a latest run unfinished or stopped by exit 75 or a
          signal); or a state could not be read
      64  usage error

    """

    package static let compareHelp = """
    OVERVIEW: Convert each file in both metadata modes, in memory, and print them side
    by side.

    Nothing is saved. For each mode: bytes, milliseconds, engine, EXIF tags kept and
    dropped, GPS, maker note, XMP, ICC, and Y-PSNR against the decoded source ('inf'
    when identical; null in JSON). Decodes whole images (about 6 bytes per pixel), in
    a decoder process: a file that crashes or hangs it fails alone.

    USAGE: heic2jpg compare [--json] [-q <1-100>] [--timeout <seconds>] <file> ...

    ARGUMENTS:
      <file>                  HEIF files.

    OPTIONS:
      --json                  Print one JSON array.
      -q, --quality <1-100>   JPEG quality. (default: 90)
      --timeout <seconds>     Time one conversion or decode may take before its
                              decoder is stopped and the file fails; 0 for none.
                              (default: 120)
      -h, --help              Show help information.

    EXIT CODES:
      0   every file converted in both modes
      1   a file failed
      64  usage error

    """

    /// The three lines printed after a usage error.
    package static func error(_ error: UsageError) -> String {
        "Error: \(error.message)\nUsage: \(usage)\n  See 'heic2jpg --help' for more information.\n"
    }
}
