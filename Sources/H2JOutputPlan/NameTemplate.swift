import H2JSupport

/// `--name TEMPLATE`: the file name (before `.jpg`) of a source's primary output, from
/// `{stem}` (`IMG_1234`), `{name}` (`IMG_1234.HEIC`), `{ext}` (`HEIC`, without the dot;
/// empty when the name has none) and `{n}` (the image number: 1 for the primary). The
/// default, `{stem}`, gives the names heic2jpg always gave.
///
/// Other images: without `{n}`, a result gets the usual suffixes (`OutputName`:
/// `RESULT-2.jpg`, `RESULT.depth.jpg`, `RESULT-left.jpg`); with `{n}`, image K's name is
/// the template expanded with `{n}` = K (`NumberedNames`), and only the suffixes that are
/// not an image number follow it. A template that passes `init` never makes a name with
/// a `/` or NUL, nor `.` or `..`: its text may not hold them or start with `.` or `-`,
/// and a source's name and stem are never `.`, `..` or empty.
package struct NameTemplate: Sendable, Equatable, CustomStringConvertible {
    private enum Piece: Equatable {
        case text(String)
        case stem, name, ext, number
    }

    private let pieces: [Piece]
    /// The template as given.
    package let description: String

    /// `{stem}`: today's names.
    package static let standard = NameTemplate(pieces: [.stem], description: "{stem}")

    /// Longest template: a file name's limit (`NAME_MAX`).
    static let maxBytes = 255

    private init(pieces: [Piece], description: String) {
        self.pieces = pieces
        self.description = description
    }

    /// Parses `text`; the error names what is wrong with it.
    package init(_ text: String) throws(NameTemplateError) {
        guard text.utf8.count <= Self.maxBytes else { throw .unsafe("it is longer than a file name may be (\(Self.maxBytes) bytes)") }
        var pieces: [Piece] = []
        var literal = ""
        var scalars = Substring(text).unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "{":
                guard let close = scalars.firstIndex(of: "}") else { throw .unbalanced("'{' without '}'") }
                let word = String(scalars[..<close])
                scalars = scalars[scalars.index(after: close)...]
                let piece: Piece
                switch word {
                case "stem": piece = .stem
                case "name": piece = .name
                case "ext": piece = .ext
                case "n": piece = .number
                default:
                    throw word.unicodeScalars.contains("{") ? .unbalanced("'{' inside '{…}'") : .unknownPlaceholder(word)
                }
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
                pieces.append(piece)
            case "}": throw .unbalanced("'}' without '{'")
            case "/", "\0": throw .unsafe("a file name cannot hold '\(scalar == "/" ? "/" : "NUL")'")
            default: literal.unicodeScalars.append(scalar)
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        guard let first = pieces.first else { throw .unsafe("it is empty") }
        if case .text(let leading) = first, let start = leading.unicodeScalars.first, start == "." || start == "-" {
            throw .unsafe(start == "." ? "a name starting with '.' is hidden" : "a name starting with '-' reads as an option")
        }
        self.init(pieces: pieces, description: text)
    }

    /// Whether the names differ between sources: `{stem}` or `{name}` is in it. Without
    /// either, every source of a directory would get the same name.
    package var namesSource: Bool { pieces.contains { $0 == .stem || $0 == .name } }

    /// Whether `{n}` numbers each image's name.
    package var numbersImages: Bool { pieces.contains(.number) }

    /// The primary's file name, without `.jpg`, for the source file named `sourceName`.
    package func expand(_ sourceName: String) -> String {
        numbered(sourceName).name(of: 1)
    }

    /// The names `{n}` gives each image of the source named `sourceName`; nil when the
    /// template has no `{n}`.
    package func numberedNames(_ sourceName: String) -> NumberedNames? {
        numbersImages ? numbered(sourceName) : nil
    }

    /// The template expanded for `sourceName`, split at each `{n}`.
    private func numbered(_ sourceName: String) -> NumberedNames {
        let stem = Path.stem(sourceName)
        let ext = String(sourceName.unicodeScalars.dropFirst(stem.unicodeScalars.count + 1))
        var parts = [""]
        for piece in pieces {
            switch piece {
            case .text(let text): parts[parts.count - 1] += text
            case .stem: parts[parts.count - 1] += stem
            case .name: parts[parts.count - 1] += sourceName
            case .ext: parts[parts.count - 1] += ext
            case .number: parts.append("")
            }
        }
        return NumberedNames(parts: parts)
    }
}

/// A `{n}` template expanded for one source, but for the image number: image K's file
/// name (without `.jpg`) is `parts` joined by K. What a job carries to name its images.
package struct NumberedNames: Sendable, Equatable {
    package let parts: [String]

    package init(parts: [String]) {
        self.parts = parts
    }

    /// The name of image `number` (1 for the primary).
    package func name(of number: Int) -> String {
        parts.joined(separator: String(number))
    }
}

/// Why a `--name` template is refused.
package enum NameTemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownPlaceholder(String)
    case unbalanced(String)
    case unsafe(String)

    package var description: String {
        switch self {
        case .unknownPlaceholder(let word): "unknown placeholder '{\(word)}' (expected {stem}, {name}, {ext} or {n})"
        case .unbalanced(let why): "unbalanced braces: \(why)"
        case .unsafe(let why): why
        }
    }
}
