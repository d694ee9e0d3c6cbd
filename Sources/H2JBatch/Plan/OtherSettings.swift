import H2JJob
import H2JMetadata
import H2JSupport

/// What an existing output's mark says of the settings it was written with, where they
/// are not this run's: the metadata mode and the quality, all a mark records. A rerun
/// with another `-q` skips the source's own outputs; this says why (`output-settings-differ`).
struct OtherSettings: CustomStringConvertible {
    let description: String

    /// nil when the mark's settings are this run's.
    init?(_ mark: ProvenanceMark, _ options: ConversionOptions) {
        var parts: [String] = []
        if mark.mode != options.metadata { parts.append("--metadata \(mark.mode.rawValue) (this run: \(options.metadata.rawValue))") }
        if mark.quality != options.quality { parts.append("quality \(mark.quality) (this run: \(options.quality))") }
        guard !parts.isEmpty else { return nil }
        description = parts.joined(separator: " and ")
    }
}

extension Warning.Code {
    /// A source skipped as done, whose own output was written with another quality or
    /// metadata mode than this run asks for: `--overwrite` replaces it.
    static let outputSettingsDiffer = Warning.Code("output-settings-differ")
}
