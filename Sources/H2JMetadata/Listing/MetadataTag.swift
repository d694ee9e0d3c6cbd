/// One tag of an image's metadata as `compare --html` lists it: an EXIF entry, an XMP
/// property or an ICC profile's header field or tag, with its value as text.
package struct MetadataTag: Equatable, Sendable {
    /// What sharing the tag may give away, called out in the table.
    package enum Category: String, Sendable, CaseIterable {
        case location
        /// Serial numbers, owner and author names, unique IDs.
        case identifying
        case captureTime = "capture time"
        case makerNote = "maker note"
    }

    /// `EXIF`, `XMP` or `ICC`.
    package let family: String
    /// Where it sits: the IFD, the XMP namespace prefix, `header` or `tag` for ICC.
    package let group: String
    /// Its name (`GPSLatitude`, `photoshop:City`, `desc`), or its number when unnamed.
    package let name: String
    /// Its value, shortened to `maxValueCharacters`.
    package let value: String
    package let category: Category?

    /// Longest value shown; longer ones end in `…`.
    package static let maxValueCharacters = 160

    package init(family: String, group: String, name: String, value: String, category: Category? = nil) {
        (self.family, self.group, self.name, self.category) = (family, group, name, category)
        self.value = value.count > Self.maxValueCharacters ? String(value.prefix(Self.maxValueCharacters)) + "…" : value
    }

    /// What identifies the tag across source and outputs.
    package var key: String { family + " " + group + " " + name }
}
