import H2JMetadata

/// The EXIF fields `inspect` shows, grouped and named as ImageIO names them
/// (`kCGImagePropertyTIFFDictionary` is `{TIFF}`, …). Absent or unreadable fields are
/// left out; GPS coordinates become signed decimal degrees.
enum EXIFSummary {
    typealias Group = ImageProperties.EXIFGroup
    typealias Field = ImageProperties.EXIFField
    typealias Value = ImageProperties.EXIFValue

    /// Fills `properties`' EXIF groups and `primary`'s EXIF orientation from the EXIF
    /// `read` parses (HEIF item or JPEG APP1), or adds a warning when it cannot be read.
    static func describe(_ read: () throws(EXIFError) -> EXIFDirectory, into properties: inout ImageProperties,
                         primary: inout ImageProperties.Primary) {
        do {
            let exif = try read()
            properties.exifGroups = groups(exif)
            primary.exifOrientation = exif.unsignedInteger(.ifd0, EXIFTag.orientation).map(Int.init)
        } catch {
            properties.warnings.append("EXIF: \(error)")
        }
    }

    static func groups(_ exif: EXIFDirectory) -> [Group] {
        let tiff = fields(exif, .ifd0, [
            ("Make", EXIFTag.make, text), ("Model", EXIFTag.model, text), ("Software", EXIFTag.software, text),
            ("DateTime", EXIFTag.dateTime, text), ("Orientation", EXIFTag.orientation, integer),
            ("XResolution", EXIFTag.xResolution, rational), ("YResolution", EXIFTag.yResolution, rational),
        ])
        let exifFields = fields(exif, .exif, [
            ("DateTimeOriginal", EXIFTag.dateTimeOriginal, text), ("ExposureTime", EXIFTag.exposureTime, rational),
            ("FNumber", EXIFTag.fNumber, rational), ("ISOSpeedRatings", EXIFTag.isoSpeedRatings, integer),
            ("FocalLength", EXIFTag.focalLength, rational), ("LensModel", EXIFTag.lensModel, text),
            ("PixelXDimension", EXIFTag.pixelXDimension, integer), ("PixelYDimension", EXIFTag.pixelYDimension, integer),
            ("ImageUniqueID", EXIFTag.imageUniqueID, text),
        ])
        var gps: [Field] = []
        if let latitude = coordinate(exif, EXIFTag.gpsLatitude, ref: EXIFTag.gpsLatitudeRef, negative: "S") {
            gps.append(Field(key: "Latitude", value: .number(latitude)))
        }
        if let longitude = coordinate(exif, EXIFTag.gpsLongitude, ref: EXIFTag.gpsLongitudeRef, negative: "W") {
            gps.append(Field(key: "Longitude", value: .number(longitude)))
        }
        if let altitude = exif.rationals(.gps, EXIFTag.gpsAltitude)?.first?.doubleValue {
            let below = exif.unsignedInteger(.gps, EXIFTag.gpsAltitudeRef) == 1
            gps.append(Field(key: "Altitude", value: .number(below ? -altitude : altitude)))
        }
        return [Group(name: "{TIFF}", fields: tiff), Group(name: "{Exif}", fields: exifFields), Group(name: "{GPS}", fields: gps)]
            .filter { !$0.fields.isEmpty }
    }

    /// How one field's value is read.
    typealias Reader = (EXIFDirectory, EXIFIFDKind, UInt16) -> Value?

    private static func fields(_ exif: EXIFDirectory, _ ifd: EXIFIFDKind, _ wanted: [(String, UInt16, Reader)]) -> [Field] {
        wanted.compactMap { key, tag, read in read(exif, ifd, tag).map { Field(key: key, value: $0) } }
    }

    private static func text(_ exif: EXIFDirectory, _ ifd: EXIFIFDKind, _ tag: UInt16) -> Value? {
        exif.string(ifd, tag).map { .text($0.trimmingTrailingSpaces) }
    }

    private static func integer(_ exif: EXIFDirectory, _ ifd: EXIFIFDKind, _ tag: UInt16) -> Value? {
        exif.unsignedInteger(ifd, tag).map { .integer(Int($0)) }
    }

    private static func rational(_ exif: EXIFDirectory, _ ifd: EXIFIFDKind, _ tag: UInt16) -> Value? {
        exif.rationals(ifd, tag)?.first.map { .rational($0) }
    }

    /// Degrees, minutes and seconds as decimal degrees, negative when the reference is
    /// `negative` (`S` or `W`); nil unless all three are there with non-zero denominators.
    private static func coordinate(_ exif: EXIFDirectory, _ tag: UInt16, ref: UInt16, negative: String) -> Double? {
        guard let parts = exif.rationals(.gps, tag), parts.count >= 3,
              let degrees = parts[0].doubleValue, let minutes = parts[1].doubleValue, let seconds = parts[2].doubleValue
        else { return nil }
        let value = degrees + minutes / 60 + seconds / 3600
        return exif.string(.gps, ref) == negative ? -value : value
    }
}

private extension String {
    /// Without the trailing spaces some cameras pad ASCII fields with.
    var trimmingTrailingSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
