/// The help, usage and version texts, laid out like swift-argument-parser's.
package enum HelpText {
    package static let version = "0.1.0"

    package static let usage = "heic2jpg [convert] [<options>] <input> ..."

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
      --overwrite             Replace existing outputs instead of skipping them.
      --dry-run               Report what would be done; write nothing.
      --report <file>         Write a JSON Lines report, one object per input plus a
                              summary; '-' for stdout.
      --background <#rrggbb>  Colour transparent pixels are flattened onto. (default:
                              #ffffff)
      --max-pixels <MP>       Refuse images with more megapixels than this after
                              rotation and cropping (decompression bombs).
                              (default: 256)
      -v, --verbose           Print one line per input and the engine that ran.
      --quiet                 Print errors only: no warnings, progress or summary.
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      compare [--json] [-q <1-100>] <file> ...
                              Convert each file in both modes, in memory (nothing
                              is saved), and print them side by side: bytes, ms,
                              engine, EXIF tags kept/dropped, GPS, maker note, XMP,
                              ICC, and Y-PSNR against the decoded source ('inf'
                              when identical; null in JSON). Decodes whole images
                              (about 6 bytes per pixel). --json prints one array.
      inspect [--json] [--source <file>] <file> ...
                              Describe HEIF and JPEG files without decoding them:
                              images (thumbnails, alpha, depth, gain map), bit
                              depth, chroma, ICC or nclx colour, orientation, key
                              EXIF and GPS fields, XMP and ICC sizes, and the
                              heic2jpg provenance mark. --source: check that each
                              mark names that file's SHA-256 (exit 1 when one
                              does not or a file has no mark). --json prints one
                              array.

    EXIT CODES:
      0   nothing failed
      1   at least one input failed (see the per-file errors)
      64  usage error

    """

    /// The three lines printed after a usage error.
    package static func error(_ error: UsageError) -> String {
        "Error: \(error.message)\nUsage: \(usage)\n  See 'heic2jpg --help' for more information.\n"
    }
}
