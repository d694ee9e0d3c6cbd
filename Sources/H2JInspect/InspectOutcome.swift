/// What `inspect` found for one file named on the command line: its properties, or why
/// it could not be described; and, with `--source`, whether its mark names that source.
package struct InspectOutcome: Sendable, Equatable {
    package let file: String
    package let properties: ImageProperties?
    package let error: String?
    /// With `--source`: true when the file's provenance mark carries the source's
    /// SHA-256; false when it carries another or has no mark; nil without `--source`.
    package var sourceMatches: Bool?

    package init(file: String, properties: ImageProperties) {
        self.file = file
        self.properties = properties
        error = nil
    }

    package init(file: String, error: String) {
        self.file = file
        properties = nil
        self.error = error
    }

    /// True when the file counts against the exit status: it could not be described, its
    /// conversion would fail (`Outputs.failure`: convert's verdict), or `--source` was
    /// given and the mark does not name the source.
    package var failed: Bool { error != nil || properties?.outputs?.failure != nil || sourceMatches == false }

    /// `--json`: one element of the printed array.
    package var json: String { InspectJSON.value(self).rendered(level: 1) }

    /// Text mode: the readable dump (empty for a file that failed; its error goes to stderr).
    package var text: String { InspectText.render(self) }
}
