import H2JSupport
import H2JJPEG

/// Result of preparing EXIF for a JPEG APP1 segment.
package struct JPEGExif: Sendable, Equatable {
    /// "Exif\0\0" followed by the TIFF bytes; at most 65,533 bytes (one APP1). nil = nothing to write.
    package var app1Payload: [UInt8]?
    /// Human-readable per-file warnings, e.g. "EXIF is 192,182 bytes, over the 65,533 a JPEG APP1 holds; dropped it".
    package var warnings: [Warning]
    /// User fields taken out of an oversized EXIF (UserComment, ImageDescription, Artist,
    /// Copyright) that the XMP packet must carry instead, or they are lost.
    package var movedToXMP: [XMPProperty]

    package init(app1Payload: [UInt8]?, warnings: [Warning], movedToXMP: [XMPProperty] = []) {
        self.app1Payload = app1Payload
        self.warnings = warnings
        self.movedToXMP = movedToXMP
    }
}

/// Turns a HEIF `Exif` item into the APP1 payload of the JPEG converted from it.
///
/// Pipeline: `TIFFHeaderLocator` → `TIFFReader` → `EXIFGPSStripper` (`--strip-gps`) →
/// `EXIFInPlaceEditor` (Orientation = 1, pixel dimensions) → `EXIFAPP1Fitter` (one APP1,
/// never split; may repack the blob, drop the thumbnail, move user fields to XMP, drop
/// the maker note) → ImageUniqueID (`TIFFIFDAppender`) when asked for and there is room.
///
/// Invariant: never traps, whatever the item; any failure yields `app1Payload == nil`
/// and a warning saying why.
package enum EXIFForJPEG {
    /// The most TIFF bytes one APP1 holds: 65,533 minus `Exif\0\0`.
    package static let maxTIFFBytes = EXIFAPP1Fitter.maxTIFFBytes

    /// Builds the APP1 payload from a HEIF `Exif` item's raw bytes, for upright pixels of
    /// width×height.
    ///
    /// - `stripGPS` removes the GPS IFD first (`EXIFGPSStripper`).
    /// - `imageUniqueID` (`ProvenanceMark.imageUniqueID`) is added to the ExifIFD as
    ///   ImageUniqueID (0xA420, ASCII with its NUL) when the source has none. It comes
    ///   after fitting, so it never costs source data: when it would not fit, it is left
    ///   out with a warning. No EXIF is made up for a source without one.
    /// - `requiredFields` adds, after fitting, the fields EXIF requires of a JPEG that the
    ///   source lacks (`EXIFAdditions`); the converter always asks for them.
    /// - `dropThumbnail` leaves IFD1 (the EXIF thumbnail) out, for pixels resized, turned
    ///   or cropped from the coded image it shows (`EXIFAPP1Fitter.withoutThumbnail`).
    /// - `sRGB`: the pixels were converted to sRGB, so ColorSpace (0xA001) becomes 1, in
    ///   place or, when absent, added with the required fields.
    /// - `tiffLimit` is the TIFF size limit, at most (and by default) the 65,527 bytes one
    ///   APP1 holds; tests and the fuzzer pass smaller limits to exercise every fitting step.
    package static func make(fromHEIFExifItem item: [UInt8], width: Int, height: Int, stripGPS: Bool = false,
                            imageUniqueID: String? = nil, requiredFields: Bool = false, dropThumbnail: Bool = false, sRGB: Bool = false,
                            tiffLimit: Int = maxTIFFBytes) -> JPEGExif {
        let limit = min(tiffLimit, maxTIFFBytes)
        guard let start = TIFFHeaderLocator.locate(in: item) else {
            return JPEGExif(app1Payload: nil, warnings: [Warning(.exifDropped, "EXIF item has no TIFF header; dropped it")])
        }
        var directory: EXIFDirectory
        do {
            directory = try TIFFReader.read(Array(item[start...]))
        } catch {
            return JPEGExif(app1Payload: nil, warnings: [Warning(.exifDropped, "EXIF is unreadable: \(error.description); dropped it")])
        }
        if stripGPS, directory.ifd(.ifd0)?.entry(EXIFTag.gpsIFDPointer) != nil {
            guard let stripped = EXIFGPSStripper.strip(directory) else {
                return JPEGExif(app1Payload: nil, warnings: [Warning(.exifDropped, "EXIF GPS could not be removed cleanly; dropped the whole EXIF (--strip-gps)")])
            }
            directory = stripped
        }
        var warnings = directory.unreadable.map { Warning(.exifPartUnreadable, "EXIF \($0.error.description); left it as it is") }

        var editor = EXIFInPlaceEditor(directory: directory)
        editor.setOrientationUpright()
        if sRGB { editor.setColourSpaceSRGB() }
        if let w = UInt32(exactly: width), let h = UInt32(exactly: height), w > 0, h > 0 {
            editor.setPixelDimensions(width: w, height: h)
        } else {
            warnings.append(Warning(.exifDimensionsKept, "image size \(width)×\(height) is not valid for EXIF; left the EXIF pixel dimensions as they were"))
        }

        var edited = editor.editedDirectory
        if dropThumbnail, edited.index(of: .ifd1) != nil {
            guard let tiff = EXIFAPP1Fitter.withoutThumbnail(edited), let reread = try? TIFFReader.read(tiff) else {
                return JPEGExif(app1Payload: nil, warnings: warnings + [Warning(.exifDropped, "EXIF thumbnail could not be removed cleanly; dropped the whole EXIF")])
            }
            edited = reread
        }
        let fitted = EXIFAPP1Fitter.fit(edited, limit: limit)
        warnings += fitted.warnings
        guard var tiff = fitted.tiff else { return JPEGExif(app1Payload: nil, warnings: warnings) }
        if let w = UInt32(exactly: width), let h = UInt32(exactly: height), w > 0, h > 0 {
            let added = EXIFAdditions.apply(to: tiff, width: w, height: h, imageUniqueID: imageUniqueID,
                                            requiredFields: requiredFields, sRGB: sRGB, limit: limit)
            tiff = added.tiff
            warnings += added.warnings
        }
        return JPEGExif(app1Payload: JPEGAPPSignature.exif + tiff, warnings: warnings, movedToXMP: fitted.movedToXMP)
    }
}
