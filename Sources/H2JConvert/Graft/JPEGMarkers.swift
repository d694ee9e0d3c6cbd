import H2JSupport
import H2JContainer
import H2JJPEG
import H2JMetadata

/// The metadata segments one output JPEG gets, decided once per file from the source's
/// metadata and the mode, then written between the frame header and the first row.
///
/// Order follows libvips and exiftool practice: APP1 EXIF, APP1 XMP (then its Extended
/// XMP APP1s, XMP Part 3 §1.1.3.1), APP2 ICC. `keep` writes all three; `strip` writes
/// the ICC profile, because colours depend on it, and XMP only for properties the
/// caller adds (the provenance mark), never the source's.
struct JPEGMarkers {
    private(set) var exif: [UInt8]?
    private(set) var xmp: [UInt8]?
    /// Extended XMP APP1 payloads, written right after `xmp`.
    private(set) var extendedXMP: [[UInt8]] = []
    private(set) var icc: [UInt8]?
    private(set) var warnings: [Warning] = []

    static let app1 = 0xE1

    /// `stripGPS` (keep mode): the GPS IFD and XMP `exif:GPS…` properties are removed.
    /// `mark`: the provenance mark, written as XMP in either mode (in `strip` mode as a
    /// packet of its own) and, in `keep` mode, as EXIF ImageUniqueID when the source's
    /// EXIF has none and it fits. EXIF fields the fitter moved out of an oversized EXIF
    /// are added to the XMP too, so they are not lost.
    /// `xmpAdding`: more properties for the XMP in keep mode (an Ultra HDR primary's).
    /// `dropThumbnail`: the pixels are not the coded image's (resized, turned, cropped), so
    /// an EXIF thumbnail (IFD1) would show something else and is left out.
    /// `sRGB`: the pixels are sRGB (`--colorspace srgb`), which the EXIF ColorSpace says.
    init(source: SourceMetadata, mode: MetadataMode, stripGPS: Bool = false, mark: ProvenanceMark? = nil,
         xmpAdding: [XMPProperty] = [], width: Int, height: Int, dropThumbnail: Bool = false, sRGB: Bool = false) {
        icc = source.icc
        let markProperties = mark?.xmpProperties ?? []
        guard mode == .keep else {
            if !markProperties.isEmpty { setXMP(XMPForJPEG.make(packet: nil, width: width, height: height, adding: markProperties)) }
            return
        }
        var adding = xmpAdding + markProperties
        if let item = source.exif {
            let prepared = EXIFForJPEG.make(fromHEIFExifItem: item, width: width, height: height, stripGPS: stripGPS,
                                            imageUniqueID: mark?.imageUniqueID, requiredFields: true,
                                            dropThumbnail: dropThumbnail, sRGB: sRGB)
            exif = prepared.app1Payload
            warnings += prepared.warnings
            adding = prepared.movedToXMP + adding
        }
        if source.xmp != nil || !adding.isEmpty {
            setXMP(XMPForJPEG.make(packet: source.xmp, width: width, height: height, stripGPS: stripGPS, adding: adding))
        }
    }

    private mutating func setXMP(_ prepared: JPEGXMP) {
        xmp = prepared.payload
        extendedXMP = prepared.extendedPayloads
        warnings += prepared.warnings
    }

    var kept: MetadataKept {
        MetadataKept(exif: exif != nil, xmp: xmp != nil, icc: icc != nil)
    }

    func write(to writer: any JPEGSegmentSink) throws {
        if let exif { try writer.writeMarker(Self.app1, exif) }
        if let xmp { try writer.writeMarker(Self.app1, xmp) }
        for extended in extendedXMP { try writer.writeMarker(Self.app1, extended) }
        if let icc { try writer.writeICC(icc) }
    }
}
