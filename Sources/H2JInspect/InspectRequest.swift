import H2JOutputPlan

/// What `heic2jpg inspect` is asked to do.
package struct InspectRequest: Sendable, Equatable {
    /// HEIF or JPEG files to describe.
    package var files: [String] = []
    /// Print one JSON array instead of text.
    package var json = false
    /// Check each file's provenance digest against this source file.
    package var source: String?
    /// The `convert` options a HEIF file's outputs are planned with (`--images`,
    /// `--stereo`, `--aux`, `--hdr`, `--metadata`): what a conversion would write.
    package var outputs = OutputChoices()
    package init() {}
}
