/// Result of preparing EXIF for a JPEG APP1 segment.
public struct JPEGExif: Sendable, Equatable {
    /// "Exif\0\0" followed by the TIFF bytes; at most 65,533 bytes (one APP1). nil = nothing to write.
    public var app1Payload: [UInt8]?
    /// Human-readable per-file warnings, e.g. "EXIF is 192,182 bytes, over the 65,533 a JPEG APP1 holds; dropped it".
    public var warnings: [String]

    public init(app1Payload: [UInt8]?, warnings: [String]) {
        self.app1Payload = app1Payload
        self.warnings = warnings
    }
}

/// Turns a HEIF `Exif` item into the APP1 payload of the JPEG converted from it.
///
/// Pipeline: `TIFFHeaderLocator` → `TIFFReader` → `EXIFInPlaceEditor` (Orientation = 1,
/// pixel dimensions) → `EXIFAPP1Fitter` (one APP1, never split). Maker notes contain
/// offsets we do not understand, so nothing is re-serialized: values are edited in place
/// and the only bytes that may move are IFD1's (the thumbnail).
///
/// Invariant: never traps, whatever the item; any failure yields `app1Payload == nil`
/// and a warning saying why.
public enum EXIFForJPEG {
    /// Builds the APP1 payload from a HEIF `Exif` item's raw bytes, for upright pixels of width×height.
    /// `stripGPS` removes the GPS IFD first (`EXIFGPSStripper`).
    public static func make(fromHEIFExifItem item: [UInt8], width: Int, height: Int, stripGPS: Bool = false) -> JPEGExif {
        make(fromHEIFExifItem: item, width: width, height: height, stripGPS: stripGPS, tiffLimit: EXIFAPP1Fitter.maxTIFFBytes)
    }

    /// As `make`, with the TIFF size limit as a parameter so tests can exercise fitting
    /// with small blobs.
    static func make(fromHEIFExifItem item: [UInt8], width: Int, height: Int, stripGPS: Bool = false, tiffLimit: Int) -> JPEGExif {
        guard let start = TIFFHeaderLocator.locate(in: item) else {
            return JPEGExif(app1Payload: nil, warnings: ["EXIF item has no TIFF header; dropped it"])
        }
        var directory: EXIFDirectory
        do {
            directory = try TIFFReader.read(Array(item[start...]))
        } catch {
            return JPEGExif(app1Payload: nil, warnings: ["EXIF is unreadable: \(error.description); dropped it"])
        }
        if stripGPS, directory.ifd(.ifd0)?.entry(EXIFTag.gpsIFDPointer) != nil {
            guard let stripped = EXIFGPSStripper.strip(directory) else {
                return JPEGExif(app1Payload: nil, warnings: ["EXIF GPS could not be removed cleanly; dropped the whole EXIF (--strip-gps)"])
            }
            directory = stripped
        }
        var warnings = directory.unreadable.map { "EXIF \($0.error.description); left it as it is" }

        var editor = EXIFInPlaceEditor(directory: directory)
        editor.setOrientationUpright()
        if let w = UInt32(exactly: width), let h = UInt32(exactly: height), w > 0, h > 0 {
            editor.setPixelDimensions(width: w, height: h)
        } else {
            warnings.append("image size \(width)×\(height) is not valid for EXIF; left the EXIF pixel dimensions as they were")
        }

        let edited = editor.editedDirectory
        let fitted = EXIFAPP1Fitter.fit(edited, limit: tiffLimit)
        warnings += fitted.warnings
        guard let tiff = fitted.tiff else { return JPEGExif(app1Payload: nil, warnings: warnings) }
        return JPEGExif(app1Payload: EXIFAPP1Fitter.exifPrefix + tiff, warnings: warnings)
    }
}
