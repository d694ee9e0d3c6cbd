/// The metadata segments one output JPEG gets, decided once per file from the source's
/// metadata and the mode, then written between the frame header and the first row.
///
/// Order follows libvips and exiftool practice: APP1 EXIF, APP1 XMP, APP2 ICC.
/// `keep` writes all three; `strip` writes only the ICC profile, because colours
/// depend on it.
struct JPEGMarkers {
    private(set) var exif: [UInt8]?
    private(set) var xmp: [UInt8]?
    private(set) var icc: [UInt8]?
    private(set) var warnings: [String] = []

    static let app1 = 0xE1

    /// `stripGPS` (keep mode): the GPS IFD and XMP `exif:GPS…` properties are removed.
    /// `imageUniqueID` (keep mode, `ProvenanceMark.imageUniqueID`): added to a source's
    /// EXIF that has no ImageUniqueID, when it fits (`EXIFForJPEG.make`).
    init(source: SourceMetadata, mode: MetadataMode, stripGPS: Bool = false, imageUniqueID: String? = nil,
         width: Int, height: Int) {
        icc = source.icc
        guard mode == .keep else { return }
        if let item = source.exif {
            let prepared = EXIFForJPEG.make(fromHEIFExifItem: item, width: width, height: height, stripGPS: stripGPS,
                                            imageUniqueID: imageUniqueID)
            exif = prepared.app1Payload
            warnings += prepared.warnings
        }
        if let packet = source.xmp {
            let prepared = XMPForJPEG.make(packet: packet, width: width, height: height, stripGPS: stripGPS)
            xmp = prepared.payload
            warnings += prepared.warnings
        }
    }

    var kept: ConversionResult.MetadataKept {
        ConversionResult.MetadataKept(exif: exif != nil, xmp: xmp != nil, icc: icc != nil)
    }

    func write(to writer: JPEGWriter) throws(JPEGError) {
        if let exif { try writer.writeMarker(Self.app1, exif) }
        if let xmp { try writer.writeMarker(Self.app1, xmp) }
        if let icc { try writer.writeICC(icc) }
    }
}
