/// What `inspect` found for one file named on the command line: its properties, or why
/// it could not be described; and, with `--source`, whether its mark names that source.
public struct InspectOutcome: Sendable, Equatable {
    public let file: String
    public let properties: ImageProperties?
    public let error: String?
    /// With `--source`: true when the file's provenance mark carries the source's
    /// SHA-256; false when it carries another or has no mark; nil without `--source`.
    public var sourceMatches: Bool?

    public init(file: String, properties: ImageProperties) {
        self.file = file
        self.properties = properties
        error = nil
    }

    public init(file: String, error: String) {
        self.file = file
        properties = nil
        self.error = error
    }

    /// True when the file counts against the exit status: it could not be described,
    /// or `--source` was given and the mark does not name the source.
    public var failed: Bool { error != nil || sourceMatches == false }

    /// `--json`: one element of the printed array.
    public var json: String { InspectJSON.value(self).rendered(level: 1) }

    /// Text mode: the readable dump (empty for a file that failed; its error goes to stderr).
    public var text: String { InspectText.render(self) }
}
