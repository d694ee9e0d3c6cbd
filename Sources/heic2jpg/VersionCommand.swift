import H2JBatch
import H2JConvert
import H2JJob
import H2JSupport

/// `heic2jpg --version` or `heic2jpg version`, and what it shows.
package struct VersionRequest: Equatable, Sendable {
    /// `--verbose` (`-v`): a line per C library loaded, after the version.
    package var verbose = false
    /// `--json`: one JSON object with the version and the C libraries.
    package var json = false

    package init(verbose: Bool = false, json: Bool = false) {
        self.verbose = verbose
        self.json = json
    }

    /// Whether the C libraries are shown (and so asked for their versions).
    package var listsLibraries: Bool { verbose || json }
}

/// The version's text: `heic2jpg 0.2.0` (the version the provenance mark and the state
/// record), then with `--verbose` one `NAME VERSION` line per C library as loaded and what
/// `--decoder auto` takes and why; with `--json` all as one object a bug report can carry.
enum VersionCommand {
    /// `libraries` are shown only when the request lists them.
    static func text(_ request: VersionRequest, libraries: [LibraryVersion]) -> String {
        if request.json {
            let fields = libraries.map { ($0.name, JSONValue.string($0.version)) }
            return JSONValue.object([("name", .string("heic2jpg")), ("version", .string(Version.current)),
                                     ("libraries", .object(fields)),
                                     ("decoder", .string(TileDecoderChoice.autoReason))]).rendered() + "\n"
        }
        let lines = ["heic2jpg \(Version.current)"]
            + (request.verbose ? libraries.map { "\($0.name) \($0.version)" } + ["decoder: \(TileDecoderChoice.autoReason)"] : [])
        return lines.joined(separator: "\n") + "\n"
    }
}
