/// The user-written text fields that may move from an oversized EXIF into XMP, with
/// their XMP homes (the Metadata Working Group's mapping):
///
/// | EXIF | XMP |
/// |---|---|
/// | UserComment (ExifIFD 0x9286) | `exif:UserComment`, language alternative |
/// | ImageDescription (IFD0 0x010E) | `dc:description`, language alternative |
/// | Artist (IFD0 0x013B) | `dc:creator`, ordered array of one item |
/// | Copyright (IFD0 0x8298) | `dc:rights`, language alternative |
///
/// Windows' XP* tags have no agreed XMP home and are never moved.
struct EXIFUserField: Sendable {
    let ifd: EXIFIFDKind
    let tag: UInt16
    /// The EXIF tag name, for warnings.
    let name: String
    private let makeProperty: @Sendable (String) -> XMPProperty

    static let all: [EXIFUserField] = [
        EXIFUserField(ifd: .exif, tag: EXIFTag.userComment, name: "UserComment") {
            XMPProperty(.exif, "UserComment", .languageAlternative($0))
        },
        EXIFUserField(ifd: .ifd0, tag: EXIFTag.imageDescription, name: "ImageDescription") {
            XMPProperty(.dc, "description", .languageAlternative($0))
        },
        EXIFUserField(ifd: .ifd0, tag: EXIFTag.artist, name: "Artist") {
            XMPProperty(.dc, "creator", .orderedArray([$0]))
        },
        EXIFUserField(ifd: .ifd0, tag: EXIFTag.copyright, name: "Copyright") {
            XMPProperty(.dc, "rights", .languageAlternative($0))
        },
    ]

    private init(ifd: EXIFIFDKind, tag: UInt16, name: String, _ makeProperty: @escaping @Sendable (String) -> XMPProperty) {
        self.ifd = ifd
        self.tag = tag
        self.name = name
        self.makeProperty = makeProperty
    }

    /// What moving a field to XMP carries over.
    enum Carried: Equatable {
        case property(XMPProperty)
        /// The text is empty or blank: nothing to carry over.
        case nothing
    }

    /// What moving `entry` to XMP carries over, or nil when its text cannot be decoded
    /// without loss (the field then stays in the EXIF).
    func carried(_ entry: TIFFEntry, in dir: EXIFDirectory) -> Carried? {
        guard let bytes = dir.rawValue(entry) else { return nil }
        let text: String?
        if tag == EXIFTag.userComment {
            guard entry.type == TIFFFieldType.undefined || entry.type == TIFFFieldType.byte else { return nil }
            text = EXIFTextDecoding.userComment(bytes, bigEndian: dir.bigEndian)
        } else {
            guard [TIFFFieldType.ascii, TIFFFieldType.undefined, TIFFFieldType.byte].contains(entry.type) else { return nil }
            text = tag == EXIFTag.copyright ? EXIFTextDecoding.copyright(bytes) : EXIFTextDecoding.text(bytes)
        }
        guard let text else { return nil }
        let trimmed = EXIFTextDecoding.droppingTrailingBlanks(text)
        return trimmed.isEmpty ? .nothing : .property(makeProperty(trimmed))
    }
}

/// Text of EXIF fields as Unicode, without Foundation.
///
/// ASCII fields end at their first NUL. Their bytes are read as UTF-8 when they are valid
/// UTF-8 (many cameras and editors write UTF-8 there) and as ISO 8859-1 otherwise, so
/// every byte maps to some character. UserComment starts with an 8-byte character code
/// (EXIF 2.32 §4.6.5): `ASCII\0\0\0` (read as above), `UNICODE\0` (UTF-16 in the TIFF
/// byte order unless a byte-order mark says otherwise), `JIS\0\0\0\0\0` or eight NULs
/// (undefined): accepted only when the rest is valid UTF-8, since a JIS X 0208 table is
/// out of scope, and nil otherwise.
enum EXIFTextDecoding {
    private static let asciiCode = Array("ASCII\u{0}\u{0}\u{0}".utf8)
    private static let unicodeCode = Array("UNICODE\u{0}".utf8)

    static func userComment(_ bytes: [UInt8], bigEndian: Bool) -> String? {
        guard bytes.count >= 8 else { return nil }
        let body = Array(bytes[8...])
        if bytes.starts(with: asciiCode) { return text(body) }
        if bytes.starts(with: unicodeCode) { return utf16(body, bigEndian: bigEndian) }
        return String(validating: body.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An ASCII-type field up to its first NUL.
    static func text(_ bytes: [UInt8]) -> String {
        decode8(bytes.prefix { $0 != 0 })
    }

    /// Copyright: "photographer NUL editor NUL" (EXIF 2.32 §4.6.5), the two parts on two
    /// lines when both are given.
    static func copyright(_ bytes: [UInt8]) -> String {
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let photographer = parts.first.map(decode8) ?? ""
        let editor = parts.count > 1 ? droppingTrailingBlanks(decode8(parts[1])) : ""
        if editor.isEmpty { return photographer }
        return droppingTrailingBlanks(photographer) == "" ? editor : photographer + "\n" + editor
    }

    /// UTF-16 up to the first U+0000; a leading byte-order mark overrides `bigEndian`.
    static func utf16(_ bytes: [UInt8], bigEndian: Bool) -> String {
        var be = bigEndian
        var start = 0
        if bytes.count >= 2 {
            if bytes[0] == 0xFE, bytes[1] == 0xFF { be = true; start = 2 }
            if bytes[0] == 0xFF, bytes[1] == 0xFE { be = false; start = 2 }
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var at = start
        while at + 1 < bytes.count {
            let unit = be ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at])
            if unit == 0 { break }
            units.append(unit)
            at += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// UTF-8 when valid, else ISO 8859-1 (each byte one character).
    static func decode8<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    /// `text` without trailing spaces and NULs (the padding cameras write).
    static func droppingTrailingBlanks(_ text: String) -> String {
        var scalars = text.unicodeScalars
        while let last = scalars.last, last == " " || last == "\u{0}" { scalars.removeLast() }
        return String(scalars)
    }
}
