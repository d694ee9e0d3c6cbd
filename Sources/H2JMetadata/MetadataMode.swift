/// What `keep` and `strip` mean for metadata. Reports, `inspect` and `compare` name the
/// modes as the command line does (`rawValue`).
package enum MetadataMode: String, Sendable, CaseIterable {
    /// EXIF (Orientation reset to 1, dimensions updated), XMP and ICC are grafted.
    case keep
    /// Pixels only, plus the ICC profile because colours depend on it.
    case strip

    /// The mode by its name, `keep` or `strip`, or by its older name, `lossless-metadata`
    /// or `lossy` (still the mark's `markValue`): what `--metadata` accepts.
    package init?(named name: String) {
        guard let mode = MetadataMode(rawValue: name) ?? Self.allCases.first(where: { $0.markValue == name }) else { return nil }
        self = mode
    }

    /// The mode as the provenance mark records it (`h2j:mode`): the older names, which
    /// every mark has carried, so that keep-mode outputs stay byte for byte as they were
    /// and marks read the same by every version.
    package var markValue: String {
        switch self {
        case .keep: "lossless-metadata"
        case .strip: "lossy"
        }
    }
}
