/// Recognises maker notes whose internal offsets do not depend on where the maker note
/// sits in the TIFF blob, so that the re-layout may move them (byte for byte).
///
/// Most vendors address their maker-note values from the EXIF TIFF header (Canon, Sony,
/// Samsung, Panasonic, …): moving such a maker note would silently break it, so
/// `TIFFLayout` keeps every maker note not listed here at its offset. Listed, with the
/// base their offsets count from (as exiftool's MakerNotes tables read them):
///
/// | prefix | vendor | offsets count from |
/// |---|---|---|
/// | `Apple iOS\0` | Apple | the maker note's first byte (IFD at byte 14) |
/// | `Nikon\0\u{2}` + TIFF header at byte 10 | Nikon, type 3 | the maker note's own TIFF header at byte 10 |
/// | `FUJIFILM` | Fujifilm | the maker note's first byte (IFD offset at byte 8) |
///
/// Another vendor belongs here only when its format is documented to be self-relative.
enum MakerNoteFormat {
    private static let apple = Array("Apple iOS\u{0}".utf8)
    private static let nikon3 = Array("Nikon\u{0}\u{2}".utf8)
    private static let fujifilm = Array("FUJIFILM".utf8)

    /// The vendor of a maker note that may be moved, or nil when it must stay where it is.
    static func movableVendor(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.starts(with: apple) { return "Apple" }
        if bytes.starts(with: nikon3), TIFFHeaderLocator.hasTIFFMagic(Array(bytes.prefix(14)), at: 10) { return "Nikon" }
        if bytes.starts(with: fujifilm) { return "Fujifilm" }
        return nil
    }
}
