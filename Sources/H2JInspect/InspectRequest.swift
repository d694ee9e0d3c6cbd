/// What `heic2jpg inspect` is asked to do.
package struct InspectRequest: Sendable, Equatable {
    /// HEIF or JPEG files to describe.
    package var files: [String] = []
    /// Print one JSON array instead of text.
    package var json = false
    /// Check each file's provenance digest against this source file.
    package var source: String?
    package init() {}
}
