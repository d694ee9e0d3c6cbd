import H2JColour
import H2JContainer
import H2JDigest
import H2JJPEG
import H2JJPEGCodec
import H2JMetadata
import H2JSupport

/// Everything one output JPEG gets from its source besides pixels, decided once per
/// image after the engine is chosen and the upright size is known: the APP segments
/// (`JPEGMarkers`: EXIF, XMP and Extended XMP, ICC, with the provenance mark), the
/// vendor trailer after EOI (`VendorTrailers`), and a warning for each piece of source
/// metadata that no part of the output carries (`AuxiliaryMetadata`). The JPEG codec
/// only writes what this decides.
///
/// Metadata comes from our container for both engines; the engine's own library
/// (libheif) is asked only when a metadata item cannot be read. A source with no ICC
/// profile but an nclx `colr` gets the profile `ICCFromNCLX` builds for it
/// (`ImageColour`); an output converted to sRGB gets `SRGBProfile` and EXIF ColorSpace 1.
struct MetadataGraft {
    let segments: JPEGMarkers
    /// The source's vendor data after EOI: the primary's output only (nil for the others).
    let trailers: VendorTrailers?
    /// In output order: the segments' edits, the trailers', the auxiliary images'.
    let warnings: [Warning]
    /// The source's SHA-256 (hex), when the provenance mark computed it.
    let sourceSHA256: String?

    /// `width`×`height` is the size the pixels are encoded at, which the EXIF and XMP
    /// dimensions state. `sourceSHA256` is the digest an earlier image of the same source
    /// computed (the file is hashed once); the vendor trailer goes only into the primary's
    /// output. `xmpAdding`: properties the output's XMP gets besides the mark (an Ultra
    /// HDR primary's gain-map claims).
    init(_ context: ConversionContext, engine: any ConversionEngine, width: Int, height: Int, sourceSHA256 known: String? = nil,
         xmpAdding: [XMPProperty] = []) throws {
        let options = context.options
        var metadata: SourceMetadata
        do {
            metadata = try SourceMetadata(storedIn: context.structure, primary: context.metadataItem, source: context.source)
        } catch {
            guard let fallback = engine.libraryMetadata() else { throw error }
            metadata = fallback
        }
        // What the coded image carries inside itself (a JPEG item's own segments) fills
        // what the container's items leave out; the container's colour comes first.
        let embedded = engine.embeddedMetadata
        metadata.exif = metadata.exif ?? embedded?.exif
        metadata.xmp = metadata.xmp ?? embedded?.xmp
        // An auxiliary image is data (depth, a matte, a gain map), not colour: no profile.
        // Pixels the engine put in a colour space of its own (tone-mapped HDR) get its
        // profile. `--colorspace srgb` makes RGB pixels sRGB (`SRGBConversion`), and says so.
        var sRGB = false
        switch ImageColour(context, engine: engine, stored: metadata.icc) {
        case .data: metadata.icc = nil
        case .colour(let profile):
            // A copied JPEG item (sRGB already: the chain is empty) is not decoded; its frame header says.
            let components = engine.codestream?.frameHeader?.components.count ?? (try? engine.pixelFormat())?.components
            sRGB = options.colorspace == .srgb && components == 3
            metadata.icc = sRGB ? SRGBProfile.bytes : profile
        }
        let isPrimary = context.metadataItem == context.structure.primaryID
        trailers = isPrimary ? try VendorTrailers(structure: context.structure, source: context.source, mode: options.metadata) : nil
        sourceSHA256 = try options.mark ? known ?? SourceDigest.hex(of: context.fileBytes) : nil
        // Strip mode is the private one: its mark names no file, only the source's digest.
        let name = options.metadata == .strip ? nil : context.sourceName
        let mark = sourceSHA256.map { ProvenanceMark(sourceName: name, sourceSHA256: $0, mode: options.metadata,
                                                     quality: options.quality, version: Version.current) }
        // The output shows other pixels than the coded image's: an EXIF thumbnail of those would mislead.
        let transformed = (try? context.structure.transforms(of: context.item.id))?.contains { $0 != .rotation(quarterTurnsAnticlockwise: 0) } ?? false
        let changed = transformed || context.thumbnailOf != nil || (width, height) != (engine.width, engine.height)
        segments = JPEGMarkers(source: metadata, mode: options.metadata, stripGPS: options.stripGPS, mark: mark,
                               xmpAdding: xmpAdding, width: width, height: height, dropThumbnail: changed, sRGB: sRGB)
        warnings = segments.warnings + (trailers?.warnings ?? [])
            + (options.metadata == .keep && context.master == nil
                ? AuxiliaryMetadata.warnings(context.structure, primary: context.metadataItem, carried: context.carriedAuxiliaries) : [])
    }

    /// Which metadata the output carries.
    var kept: MetadataKept { segments.kept }

    /// The APP segments, between the frame header and the first row.
    func writeSegments(to writer: any JPEGSegmentSink) throws {
        try segments.write(to: writer)
    }

    /// The vendor trailer, if any, after the JPEG's EOI; `path` names the output.
    func writeTrailer(to fd: Int32, path: String) throws(WriteError) {
        if let trailer = trailers?.jpegTrailer { try POSIX.writeAll(trailer, to: fd, path: path) }
    }
}
