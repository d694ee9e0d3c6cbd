/// The names EXIF 2.32 (CIPA DC-008), TIFF 6.0 and DNG give tag numbers, as exiftool
/// spells them, for `compare --html`'s tag table. A tag not listed is shown by number.
package enum EXIFTagNames {
    /// The name of `tag` in an IFD of `kind`, or nil when it is not a standard tag.
    package static func name(_ tag: UInt16, in kind: EXIFIFDKind) -> String? {
        switch kind {
        case .gps: gps[tag]
        case .interop: interop[tag]
        default: image[tag]
        }
    }

    /// IFD0, IFD1 and the Exif IFD share one numbering.
    static let image: [UInt16: String] = [
        0x000B: "ProcessingSoftware", 0x00FE: "SubfileType", 0x00FF: "OldSubfileType",
        0x0100: "ImageWidth", 0x0101: "ImageHeight", 0x0102: "BitsPerSample", 0x0103: "Compression",
        0x0106: "PhotometricInterpretation", 0x010A: "FillOrder", 0x010D: "DocumentName", 0x010E: "ImageDescription",
        0x010F: "Make", 0x0110: "Model", 0x0111: "StripOffsets", 0x0112: "Orientation", 0x0115: "SamplesPerPixel",
        0x0116: "RowsPerStrip", 0x0117: "StripByteCounts", 0x011A: "XResolution", 0x011B: "YResolution",
        0x011C: "PlanarConfiguration", 0x011D: "PageName", 0x0128: "ResolutionUnit", 0x012D: "TransferFunction",
        0x0131: "Software", 0x0132: "ModifyDate", 0x013B: "Artist", 0x013C: "HostComputer", 0x013D: "Predictor",
        0x013E: "WhitePoint", 0x013F: "PrimaryChromaticities", 0x0142: "TileWidth", 0x0143: "TileLength",
        0x0144: "TileOffsets", 0x0145: "TileByteCounts", 0x014A: "SubIFDs", 0x0201: "ThumbnailOffset",
        0x0202: "ThumbnailLength", 0x0211: "YCbCrCoefficients", 0x0212: "YCbCrSubSampling", 0x0213: "YCbCrPositioning",
        0x0214: "ReferenceBlackWhite", 0x02BC: "ApplicationNotes", 0x4746: "Rating", 0x4749: "RatingPercent",
        0x8298: "Copyright", 0x829A: "ExposureTime", 0x829D: "FNumber", 0x83BB: "IPTC-NAA", 0x8649: "PhotoshopSettings",
        0x8769: "ExifOffset", 0x8773: "ICC_Profile", 0x8822: "ExposureProgram", 0x8824: "SpectralSensitivity",
        0x8825: "GPSInfo", 0x8827: "ISO", 0x8828: "Opto-ElectricConvFactor", 0x8830: "SensitivityType",
        0x8831: "StandardOutputSensitivity", 0x8832: "RecommendedExposureIndex", 0x8833: "ISOSpeed",
        0x8834: "ISOSpeedLatitudeyyy", 0x8835: "ISOSpeedLatitudezzz", 0x9000: "ExifVersion", 0x9003: "DateTimeOriginal",
        0x9004: "CreateDate", 0x9010: "OffsetTime", 0x9011: "OffsetTimeOriginal", 0x9012: "OffsetTimeDigitized",
        0x9101: "ComponentsConfiguration", 0x9102: "CompressedBitsPerPixel", 0x9201: "ShutterSpeedValue",
        0x9202: "ApertureValue", 0x9203: "BrightnessValue", 0x9204: "ExposureCompensation", 0x9205: "MaxApertureValue",
        0x9206: "SubjectDistance", 0x9207: "MeteringMode", 0x9208: "LightSource", 0x9209: "Flash", 0x920A: "FocalLength",
        0x9214: "SubjectArea", 0x927C: "MakerNote", 0x9286: "UserComment", 0x9290: "SubSecTime",
        0x9291: "SubSecTimeOriginal", 0x9292: "SubSecTimeDigitized", 0x9400: "AmbientTemperature", 0x9401: "Humidity",
        0x9402: "Pressure", 0x9403: "WaterDepth", 0x9404: "Acceleration", 0x9405: "CameraElevationAngle",
        0x9C9B: "XPTitle", 0x9C9C: "XPComment", 0x9C9D: "XPAuthor", 0x9C9E: "XPKeywords", 0x9C9F: "XPSubject",
        0xA000: "FlashpixVersion", 0xA001: "ColorSpace", 0xA002: "ExifImageWidth", 0xA003: "ExifImageHeight",
        0xA004: "RelatedSoundFile", 0xA005: "InteropOffset", 0xA20B: "FlashEnergy", 0xA20C: "SpatialFrequencyResponse",
        0xA20E: "FocalPlaneXResolution", 0xA20F: "FocalPlaneYResolution", 0xA210: "FocalPlaneResolutionUnit",
        0xA214: "SubjectLocation", 0xA215: "ExposureIndex", 0xA217: "SensingMethod", 0xA300: "FileSource",
        0xA301: "SceneType", 0xA302: "CFAPattern", 0xA401: "CustomRendered", 0xA402: "ExposureMode", 0xA403: "WhiteBalance",
        0xA404: "DigitalZoomRatio", 0xA405: "FocalLengthIn35mmFormat", 0xA406: "SceneCaptureType", 0xA407: "GainControl",
        0xA408: "Contrast", 0xA409: "Saturation", 0xA40A: "Sharpness", 0xA40B: "DeviceSettingDescription",
        0xA40C: "SubjectDistanceRange", 0xA420: "ImageUniqueID", 0xA430: "OwnerName", 0xA431: "SerialNumber",
        0xA432: "LensInfo", 0xA433: "LensMake", 0xA434: "LensModel", 0xA435: "LensSerialNumber",
        0xA436: "ImageTitle", 0xA437: "Photographer", 0xA438: "ImageEditor", 0xA439: "CameraFirmware",
        0xA43A: "RAWDevelopingSoftware", 0xA43B: "ImageEditingSoftware", 0xA43C: "MetadataEditingSoftware",
        0xA460: "CompositeImage", 0xA461: "CompositeImageCount", 0xA462: "CompositeImageExposureTimes",
        0xA500: "Gamma", 0xC4A5: "PrintIM", 0xC612: "DNGVersion", 0xC614: "UniqueCameraModel", 0xEA1C: "Padding",
        0xEA1D: "OffsetSchema",
    ]

    static let gps: [UInt16: String] = [
        0x0000: "GPSVersionID", 0x0001: "GPSLatitudeRef", 0x0002: "GPSLatitude", 0x0003: "GPSLongitudeRef",
        0x0004: "GPSLongitude", 0x0005: "GPSAltitudeRef", 0x0006: "GPSAltitude", 0x0007: "GPSTimeStamp",
        0x0008: "GPSSatellites", 0x0009: "GPSStatus", 0x000A: "GPSMeasureMode", 0x000B: "GPSDOP", 0x000C: "GPSSpeedRef",
        0x000D: "GPSSpeed", 0x000E: "GPSTrackRef", 0x000F: "GPSTrack", 0x0010: "GPSImgDirectionRef",
        0x0011: "GPSImgDirection", 0x0012: "GPSMapDatum", 0x0013: "GPSDestLatitudeRef", 0x0014: "GPSDestLatitude",
        0x0015: "GPSDestLongitudeRef", 0x0016: "GPSDestLongitude", 0x0017: "GPSDestBearingRef", 0x0018: "GPSDestBearing",
        0x0019: "GPSDestDistanceRef", 0x001A: "GPSDestDistance", 0x001B: "GPSProcessingMethod",
        0x001C: "GPSAreaInformation", 0x001D: "GPSDateStamp", 0x001E: "GPSDifferential", 0x001F: "GPSHPositioningError",
    ]

    static let interop: [UInt16: String] = [
        0x0001: "InteropIndex", 0x0002: "InteropVersion", 0x1000: "RelatedImageFileFormat",
        0x1001: "RelatedImageWidth", 0x1002: "RelatedImageHeight",
    ]
}
