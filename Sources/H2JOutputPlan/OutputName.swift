import H2JSupport

/// Which of a source's outputs a file is, as the suffix its name gets before the
/// extension: none for the primary (`NAME.jpg`), `-2`, `-3`, … for the file's other
/// images in `HEIFStructure.stillImages()` order (`NAME-2.jpg`). The names are
/// deterministic, and Windows-safe since a suffix is ASCII letters, digits, `-` and `.`.
///
/// A worker names each output it writes; the parent, which owns every path, accepts
/// only a well-formed suffix (`init(checking:)`: a taken-over worker's bytes are
/// untrusted) and derives the path from the job's planned output.
package struct OutputName: Sendable, Hashable {
    package let suffix: String

    /// The job's planned output: `NAME.jpg`.
    package static let primary = OutputName(unchecked: "")

    /// The image at `position` (2, 3, …) of the file's still images: `NAME-2.jpg`.
    package static func image(_ position: Int) -> OutputName {
        OutputName(unchecked: "-\(position)")
    }

    /// Longest suffix accepted.
    static let maxSuffixLength = 24

    private init(unchecked suffix: String) {
        self.suffix = suffix
    }

    /// A suffix as a worker sent it; nil unless it is empty, or starts with `-` or `.`
    /// followed by ASCII letters, digits, `-` and `.` (no `..`), at most
    /// `maxSuffixLength` long: it can never name another directory or a hidden file.
    package init?(checking suffix: String) {
        let bytes = Array(suffix.utf8)
        if !bytes.isEmpty {
            guard bytes.count <= Self.maxSuffixLength, bytes.count >= 2, bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "."),
                  !suffix.contains(".."),
                  bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                      || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else { return nil }
        }
        self.suffix = suffix
    }

    /// What the state records as the output's kind: `primary`, `image` for another still
    /// image of the file, or the `--aux` kind (`depth`, `matte`, `gainmap`, `alpha`), the
    /// word after the dot, whichever image it belongs to (`.depth`, `-2.matte-2`).
    package var kind: String {
        if self == .primary { return "primary" }
        guard let dot = suffix.firstIndex(of: "."),
              let token = suffix[suffix.index(after: dot)...].split(separator: "-").first else { return "image" }
        return String(token)
    }

    /// This output's path, given the job's planned output path: the suffix goes between
    /// the file name's stem and its extension (`out/IMG_1.jpg` → `out/IMG_1-2.jpg`).
    /// With `numbered` (a `--name` template with `{n}`), another image's name is its own
    /// (`out/IMG_1_2.jpg`), and only the rest of the suffix follows it (`out/IMG_1_2.depth.jpg`).
    package func path(besides planned: String, numbered: NumberedNames? = nil) -> String {
        guard !suffix.isEmpty else { return planned }
        let name = Path.lastComponent(planned)
        var stem = Path.stem(name)
        let ext = String(name.unicodeScalars.dropFirst(stem.unicodeScalars.count))
        var rest = suffix
        if let numbered, let (number, after) = imageNumber {
            (stem, rest) = (numbered.name(of: number), after)
        }
        let fileName = stem + rest + ext
        return planned.unicodeScalars.contains("/") ? Path.join(Path.parent(planned), fileName) : fileName
    }

    /// The image number that starts the suffix (`-2` of `-2`, `-2-left`, `-2.depth`; as
    /// `OutputPlan.plans` writes it) and what follows it; nil for the primary's own outputs.
    private var imageNumber: (Int, String)? {
        let scalars = Substring(suffix).unicodeScalars
        guard scalars.first == "-" else { return nil }
        let digits = scalars.dropFirst().prefix { ("0"..."9").contains($0) }
        let after = scalars.dropFirst(1 + digits.count)
        guard !digits.isEmpty, digits.count <= 6, after.first.map({ $0 == "-" || $0 == "." }) ?? true,
              let number = Int(String(digits)) else { return nil }
        return (number, String(after))
    }
}
