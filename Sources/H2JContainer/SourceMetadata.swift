import H2JSupport

/// The metadata a source offers its output, before any editing: the `Exif` item as
/// stored (4-byte header offset + TIFF), the XMP packet, and the ICC profile.
///
/// Read the way libheif assigns metadata to an image: the first `Exif` item and the
/// first `mime` item of type `application/rdf+xml` that describe (`cdsc`) the primary
/// item; the ICC profile of the primary's `colr`, or, for a grid with none, of its first
/// tile. This is what the file holds; the graft stage adds a profile for an nclx.
package struct SourceMetadata {
    package var exif: [UInt8]?
    package var xmp: [UInt8]?
    package var icc: [UInt8]?

    package static let xmpContentType = "application/rdf+xml"
    /// Largest metadata item read: far above real ones (≈200 KB EXIF, ≈60 KB XMP).
    static let maxItemBytes = 64 << 20

    package init(exif: [UInt8]?, xmp: [UInt8]?, icc: [UInt8]?) {
        self.exif = exif
        self.xmp = xmp
        self.icc = icc
    }

    /// What the file itself holds; reads only the items it needs.
    package init(storedIn structure: HEIFStructure, primary: UInt32, source: ByteSource) throws(HEIFError) {
        let describing = structure.items.values
            .filter { structure.referenced(from: $0.id, type: "cdsc").contains(primary) }
            .sorted { $0.id < $1.id }
        if let item = describing.first(where: { $0.type == "Exif" }) {
            exif = try structure.itemData(item.id, from: source, maxBytes: Self.maxItemBytes)
        }
        if let item = describing.first(where: { $0.type == "mime" && $0.contentType == Self.xmpContentType }) {
            xmp = try structure.itemData(item.id, from: source, maxBytes: Self.maxItemBytes)
        }
        icc = Self.colour(structure, primary).icc
    }

    /// The primary's `colr` properties; a grid lacking an ICC profile or an nclx takes
    /// its first tile's, as libheif assigns a grid its colour profiles.
    package static func colour(_ structure: HEIFStructure, _ primary: UInt32) -> ColourInformation {
        var own = structure.colour(of: primary)
        guard structure.items[primary]?.type == "grid", let first = structure.referenced(from: primary, type: "dimg").first
        else { return own }
        let tile = structure.colour(of: first)
        own.icc = own.icc ?? tile.icc
        own.nclx = own.nclx ?? tile.nclx
        return own
    }

    /// The nclx colour description of the primary, when it has one.
    package static func nclx(_ structure: HEIFStructure, _ primary: UInt32) -> NCLX? {
        colour(structure, primary).nclx
    }
}
