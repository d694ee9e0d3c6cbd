/// The metadata a source offers its output, before any editing: the `Exif` item as
/// stored (4-byte header offset + TIFF), the XMP packet, and the ICC profile.
///
/// Both engines read it the same way libheif assigns metadata to an image: the first
/// `Exif` item and the first `mime` item of type `application/rdf+xml` that describe
/// (`cdsc`) the primary item; the ICC profile of the primary's `colr`, or, for a grid
/// with none, of its first tile.
struct SourceMetadata {
    var exif: [UInt8]?
    var xmp: [UInt8]?
    var icc: [UInt8]?

    static let xmpContentType = "application/rdf+xml"
    /// Largest metadata item read: far above real ones (≈200 KB EXIF, ≈60 KB XMP).
    static let maxItemBytes = 64 << 20

    /// From libheif's handle (the libheif engine).
    init(handle: LibheifHandle) {
        exif = handle.metadata(type: "Exif").first
        xmp = handle.metadata(type: "mime", contentType: Self.xmpContentType).first
        icc = handle.iccProfile()
    }

    /// From our own container reader (the tile engine); reads only the items it needs.
    init(structure: HEIFStructure, primary: UInt32, source: ByteSource) throws(HEIFError) {
        let describing = structure.items.values
            .filter { structure.referenced(from: $0.id, type: "cdsc").contains(primary) }
            .sorted { $0.id < $1.id }
        if let item = describing.first(where: { $0.type == "Exif" }) {
            exif = try structure.itemData(item.id, from: source, maxBytes: Self.maxItemBytes)
        }
        if let item = describing.first(where: { $0.type == "mime" && $0.contentType == Self.xmpContentType }) {
            xmp = try structure.itemData(item.id, from: source, maxBytes: Self.maxItemBytes)
        }
        icc = structure.colour(of: primary).icc
        if icc == nil, structure.items[primary]?.type == "grid", let first = structure.referenced(from: primary, type: "dimg").first {
            icc = structure.colour(of: first).icc
        }
    }
}
