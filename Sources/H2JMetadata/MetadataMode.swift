/// What `keep` and `strip` mean for metadata.
package enum MetadataMode: String, Sendable, CaseIterable {
    /// Lossless-metadata mode: EXIF (Orientation reset to 1, dimensions updated), XMP and ICC are grafted.
    case keep
    /// Lossy mode: pixels only, plus the ICC profile because colours depend on it.
    case strip

    /// The mode's name where it is shown or recorded (the provenance mark, `inspect`,
    /// `compare`): the names the README gives the two modes.
    package var name: String {
        switch self {
        case .keep: "lossless-metadata"
        case .strip: "lossy"
        }
    }
}
