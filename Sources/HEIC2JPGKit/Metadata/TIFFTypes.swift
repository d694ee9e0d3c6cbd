/// Vocabulary shared by the EXIF reader, editor and fitter: which IFD is which, the TIFF
/// field types and their sizes, the tags we care about, and rational values.
///
/// Nothing here reads bytes; it only names things.

/// Which image file directory (IFD) of an EXIF/TIFF blob an IFD is.
///
/// EXIF is a TIFF structure: IFD0 describes the main image and points at the Exif IFD
/// (0x8769) and the GPS IFD (0x8825); the Exif IFD points at the Interoperability IFD
/// (0xA005); IFD0's next-IFD pointer leads to IFD1, which describes the thumbnail.
public enum EXIFIFDKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ifd0
    case exif
    case gps
    case interop
    case ifd1
    /// An IFD reached through a SubIFDs (0x014A) pointer; walked only so its bytes are kept.
    case subIFD
    /// IFD2 and later in the IFD1 chain; walked only so their bytes are kept.
    case laterIFD

    public var description: String {
        switch self {
        case .ifd0: "IFD0"
        case .exif: "ExifIFD"
        case .gps: "GPS IFD"
        case .interop: "InteropIFD"
        case .ifd1: "IFD1"
        case .subIFD: "SubIFD"
        case .laterIFD: "IFD2+"
        }
    }
}

/// TIFF field types (TIFF 6.0 §2 plus the IFD type from TIFF Technical Note 1).
public enum TIFFFieldType {
    public static let byte: UInt16 = 1
    public static let ascii: UInt16 = 2
    public static let short: UInt16 = 3
    public static let long: UInt16 = 4
    public static let rational: UInt16 = 5
    public static let sbyte: UInt16 = 6
    public static let undefined: UInt16 = 7
    public static let sshort: UInt16 = 8
    public static let slong: UInt16 = 9
    public static let srational: UInt16 = 10
    public static let float: UInt16 = 11
    public static let double: UInt16 = 12
    public static let ifd: UInt16 = 13

    /// Bytes per element of `type`, or nil for a type this reader does not know
    /// (whose values therefore cannot be located).
    public static func size(of type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}

/// Tag numbers used by this module. Values are TIFF/EXIF 2.32 tag IDs.
public enum EXIFTag {
    // IFD0 / IFD1
    public static let imageWidth: UInt16 = 0x0100
    public static let imageLength: UInt16 = 0x0101
    public static let imageDescription: UInt16 = 0x010E
    public static let make: UInt16 = 0x010F
    public static let model: UInt16 = 0x0110
    public static let stripOffsets: UInt16 = 0x0111
    public static let orientation: UInt16 = 0x0112
    public static let stripByteCounts: UInt16 = 0x0117
    public static let software: UInt16 = 0x0131
    public static let dateTime: UInt16 = 0x0132
    public static let artist: UInt16 = 0x013B
    public static let xResolution: UInt16 = 0x011A
    public static let yResolution: UInt16 = 0x011B
    public static let resolutionUnit: UInt16 = 0x0128
    public static let yCbCrPositioning: UInt16 = 0x0213
    public static let tileOffsets: UInt16 = 0x0144
    public static let tileByteCounts: UInt16 = 0x0145
    public static let subIFDs: UInt16 = 0x014A
    public static let jpegInterchangeFormat: UInt16 = 0x0201
    public static let jpegInterchangeFormatLength: UInt16 = 0x0202
    public static let copyright: UInt16 = 0x8298
    public static let exifIFDPointer: UInt16 = 0x8769
    public static let gpsIFDPointer: UInt16 = 0x8825
    // Exif IFD
    public static let exposureTime: UInt16 = 0x829A
    public static let fNumber: UInt16 = 0x829D
    public static let isoSpeedRatings: UInt16 = 0x8827
    public static let dateTimeOriginal: UInt16 = 0x9003
    public static let focalLength: UInt16 = 0x920A
    public static let makerNote: UInt16 = 0x927C
    public static let userComment: UInt16 = 0x9286
    public static let componentsConfiguration: UInt16 = 0x9101
    public static let flashpixVersion: UInt16 = 0xA000
    public static let pixelXDimension: UInt16 = 0xA002
    public static let pixelYDimension: UInt16 = 0xA003
    public static let interopIFDPointer: UInt16 = 0xA005
    public static let imageUniqueID: UInt16 = 0xA420
    public static let lensModel: UInt16 = 0xA434
    // GPS IFD
    public static let gpsVersionID: UInt16 = 0x0000
    public static let gpsLatitudeRef: UInt16 = 0x0001
    public static let gpsLatitude: UInt16 = 0x0002
    public static let gpsLongitudeRef: UInt16 = 0x0003
    public static let gpsLongitude: UInt16 = 0x0004
    public static let gpsAltitudeRef: UInt16 = 0x0005
    public static let gpsAltitude: UInt16 = 0x0006

    /// The IFD kind a pointer tag leads to, or nil when `tag` is not an IFD pointer.
    static func pointerTarget(_ tag: UInt16) -> EXIFIFDKind? {
        switch tag {
        case exifIFDPointer: .exif
        case gpsIFDPointer: .gps
        case interopIFDPointer: .interop
        case subIFDs: .subIFD
        default: nil
        }
    }

    /// The tag holding the byte counts of the data blocks whose offsets `tag` holds
    /// (JPEGInterchangeFormat, StripOffsets, TileOffsets), or nil for any other tag.
    static func lengthsTag(forOffsets tag: UInt16) -> UInt16? {
        switch tag {
        case jpegInterchangeFormat: jpegInterchangeFormatLength
        case stripOffsets: stripByteCounts
        case tileOffsets: tileByteCounts
        default: nil
        }
    }
}

/// A RATIONAL or SRATIONAL value. Both fit in `Int64` without loss.
public struct TIFFRational: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int64
    public var denominator: Int64

    public init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// numerator / denominator, or nil when the denominator is 0.
    public var doubleValue: Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }

    public var description: String { "\(numerator)/\(denominator)" }
}
