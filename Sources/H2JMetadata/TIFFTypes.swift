/// Vocabulary shared by the EXIF reader, editor and fitter: which IFD is which, the TIFF
/// field types and their sizes, the tags we care about, and rational values.
///
/// Nothing here reads bytes; it only names things.

/// Which image file directory (IFD) of an EXIF/TIFF blob an IFD is.
///
/// EXIF is a TIFF structure: IFD0 describes the main image and points at the Exif IFD
/// (0x8769) and the GPS IFD (0x8825); the Exif IFD points at the Interoperability IFD
/// (0xA005); IFD0's next-IFD pointer leads to IFD1, which describes the thumbnail.
package enum EXIFIFDKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ifd0
    case exif
    case gps
    case interop
    case ifd1
    /// An IFD reached through a SubIFDs (0x014A) pointer; walked only so its bytes are kept.
    case subIFD
    /// IFD2 and later in the IFD1 chain; walked only so their bytes are kept.
    case laterIFD

    package var description: String {
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
package enum TIFFFieldType {
    package static let byte: UInt16 = 1
    package static let ascii: UInt16 = 2
    package static let short: UInt16 = 3
    package static let long: UInt16 = 4
    package static let rational: UInt16 = 5
    package static let sbyte: UInt16 = 6
    package static let undefined: UInt16 = 7
    package static let sshort: UInt16 = 8
    package static let slong: UInt16 = 9
    package static let srational: UInt16 = 10
    package static let float: UInt16 = 11
    package static let double: UInt16 = 12
    package static let ifd: UInt16 = 13

    /// Bytes per element of `type`, or nil for a type this reader does not know
    /// (whose values therefore cannot be located).
    package static func size(of type: UInt16) -> Int? {
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
package enum EXIFTag {
    // IFD0 / IFD1
    package static let imageWidth: UInt16 = 0x0100
    package static let imageLength: UInt16 = 0x0101
    package static let imageDescription: UInt16 = 0x010E
    package static let make: UInt16 = 0x010F
    package static let model: UInt16 = 0x0110
    package static let stripOffsets: UInt16 = 0x0111
    package static let orientation: UInt16 = 0x0112
    package static let stripByteCounts: UInt16 = 0x0117
    package static let software: UInt16 = 0x0131
    package static let dateTime: UInt16 = 0x0132
    package static let artist: UInt16 = 0x013B
    package static let xResolution: UInt16 = 0x011A
    package static let yResolution: UInt16 = 0x011B
    package static let resolutionUnit: UInt16 = 0x0128
    package static let yCbCrPositioning: UInt16 = 0x0213
    package static let tileOffsets: UInt16 = 0x0144
    package static let tileByteCounts: UInt16 = 0x0145
    package static let subIFDs: UInt16 = 0x014A
    package static let jpegInterchangeFormat: UInt16 = 0x0201
    package static let jpegInterchangeFormatLength: UInt16 = 0x0202
    package static let copyright: UInt16 = 0x8298
    package static let exifIFDPointer: UInt16 = 0x8769
    package static let gpsIFDPointer: UInt16 = 0x8825
    // Exif IFD
    package static let exposureTime: UInt16 = 0x829A
    package static let fNumber: UInt16 = 0x829D
    package static let isoSpeedRatings: UInt16 = 0x8827
    package static let dateTimeOriginal: UInt16 = 0x9003
    package static let focalLength: UInt16 = 0x920A
    package static let makerNote: UInt16 = 0x927C
    package static let userComment: UInt16 = 0x9286
    package static let componentsConfiguration: UInt16 = 0x9101
    package static let flashpixVersion: UInt16 = 0xA000
    package static let colorSpace: UInt16 = 0xA001
    package static let pixelXDimension: UInt16 = 0xA002
    package static let pixelYDimension: UInt16 = 0xA003
    package static let interopIFDPointer: UInt16 = 0xA005
    package static let imageUniqueID: UInt16 = 0xA420
    package static let lensModel: UInt16 = 0xA434
    // GPS IFD
    package static let gpsVersionID: UInt16 = 0x0000
    package static let gpsLatitudeRef: UInt16 = 0x0001
    package static let gpsLatitude: UInt16 = 0x0002
    package static let gpsLongitudeRef: UInt16 = 0x0003
    package static let gpsLongitude: UInt16 = 0x0004
    package static let gpsAltitudeRef: UInt16 = 0x0005
    package static let gpsAltitude: UInt16 = 0x0006

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
package struct TIFFRational: Sendable, Hashable, CustomStringConvertible {
    package var numerator: Int64
    package var denominator: Int64

    package init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// numerator / denominator, or nil when the denominator is 0.
    package var doubleValue: Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }

    package var description: String { "\(numerator)/\(denominator)" }
}
