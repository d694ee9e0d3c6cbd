import H2JTestSupport
import Testing
@testable import H2JMetadata

@Suite("EXIF additions: required JPEG fields and ImageUniqueID, by the append-IFD edit")
struct EXIFAdditionsTests {
    static let id = "0123456789ABCDEF0123456789ABCDEF"

    /// A source EXIF as a HEIF writes it: IFD0 with ImageWidth/Length, an ExifIFD without
    /// the JPEG-required fields, a GPS IFD without GPSVersionID.
    static func source(bigEndian: Bool, gpsTag: UInt16 = EXIFTag.gpsLatitudeRef) -> [UInt8] {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.ifd1 = nil
        t.thumbnail = nil
        t.ifd0.removeAll { $0.tag == 0x011A }
        t.exif = [EXIFTestTIFF.Entry(EXIFTag.dateTimeOriginal, .ascii("2023:04:27 19:44:18")),
                  EXIFTestTIFF.Entry(EXIFTag.makerNote, .undefined(Array("Apple iOS\u{0}MAKERNOTE-DATA".utf8)))]
        t.gps = [EXIFTestTIFF.Entry(gpsTag, .ascii("N"))]
        return t.build().bytes
    }

    @Test("Adds what a JPEG's EXIF requires, removes IFD0 ImageWidth/Length, moves nothing", arguments: [false, true])
    func conformance(bigEndian: Bool) throws {
        let tiff = Self.source(bigEndian: bigEndian)
        let before = try EXIFDirectory(tiff: tiff)
        let (out, warnings) = EXIFAdditions.apply(to: tiff, width: 640, height: 480, imageUniqueID: Self.id, limit: 65_527)
        #expect(warnings.isEmpty)
        let dir = try EXIFDirectory(tiff: out)
        #expect(dir.entry(.ifd0, EXIFTag.imageWidth) == nil && dir.entry(.ifd0, EXIFTag.imageLength) == nil)
        #expect(dir.rationals(.ifd0, EXIFTag.xResolution) == [TIFFRational(72, 1)])
        #expect(dir.rationals(.ifd0, EXIFTag.yResolution) == [TIFFRational(72, 1)])
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.resolutionUnit) == 2)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.yCbCrPositioning) == 1)
        #expect(dir.rawValue(.exif, EXIFTag.componentsConfiguration) == [1, 2, 3, 0])
        #expect(dir.rawValue(.exif, EXIFTag.flashpixVersion) == Array("0100".utf8))
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 640)
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelYDimension) == 480)
        #expect(dir.string(.exif, EXIFTag.imageUniqueID) == Self.id)
        #expect(dir.rawValue(.gps, EXIFTag.gpsVersionID) == [2, 2, 0, 0])
        // Everything the source had reads the same, at the same offsets (appended, not moved).
        #expect([UInt8](out.prefix(tiff.count)).dropFirst(8).count == tiff.count - 8)
        #expect(dir.string(.ifd0, EXIFTag.make) == "Apple")
        #expect(dir.entry(.exif, EXIFTag.makerNote)?.valueOffset == before.entry(.exif, EXIFTag.makerNote)?.valueOffset)
        #expect(dir.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
        // Each directory is sorted by tag, as TIFF requires.
        for ifd in dir.ifds { #expect(ifd.entries.map(\.tag) == ifd.entries.map(\.tag).sorted(), "\(ifd.kind)") }
    }

    @Test("Present fields are left alone; the GPS version follows the tags the GPS IFD holds")
    func presentAndVersions() throws {
        var t = EXIFTestTIFF.typical()
        t.exif!.append(EXIFTestTIFF.Entry(EXIFTag.imageUniqueID, .ascii("SOURCE-ID")))
        t.gps!.append(EXIFTestTIFF.Entry(0x001F, .rational([(5, 1)])))  // GPSHPositioningError: EXIF 2.3
        let tiff = t.build().bytes
        let (out, _) = EXIFAdditions.apply(to: tiff, width: 4032, height: 3024, imageUniqueID: Self.id, limit: 65_527)
        let dir = try EXIFDirectory(tiff: out)
        #expect(dir.string(.exif, EXIFTag.imageUniqueID) == "SOURCE-ID")
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 4032)  // the source's own entry
        #expect(dir.rawValue(.gps, EXIFTag.gpsVersionID) == [2, 3, 0, 0])
    }

    @Test("Without room, only the ImageUniqueID is tried, then nothing; each a warning")
    func noRoom() throws {
        let tiff = Self.source(bigEndian: false)
        let onlyMark = EXIFAdditions.apply(to: tiff, width: 640, height: 480, imageUniqueID: Self.id, limit: tiff.count + 120)
        #expect(onlyMark.warnings.count == 1)
        #expect(onlyMark.warnings.first?.message.hasPrefix("did not add the fields EXIF requires of a JPEG (") == true)
        #expect(try EXIFDirectory(tiff: onlyMark.tiff).string(.exif, EXIFTag.imageUniqueID) == Self.id)
        let nothing = EXIFAdditions.apply(to: tiff, width: 640, height: 480, imageUniqueID: Self.id, limit: tiff.count)
        #expect(nothing.tiff == tiff)
        #expect(nothing.warnings.count == 2)
        #expect(nothing.warnings.last?.message.hasPrefix("did not add the provenance ImageUniqueID to the EXIF: the EXIF would grow to ") == true)
    }

    @Test("Pointer and data-offset tags cannot be removed by the append-IFD edit")
    func removalGuard() throws {
        let dir = try EXIFDirectory(tiff: EXIFTestTIFF.typical().build().bytes)
        #expect(throws: EXIFError.self) { try TIFFIFDAppender.set([:], removing: [EXIFTag.exifIFDPointer], in: .ifd0, of: dir) }
        #expect(throws: EXIFError.self) { try TIFFIFDAppender.set([:], removing: [EXIFTag.jpegInterchangeFormat], in: .ifd1, of: dir) }
    }
}

@Suite("EXIF ColorSpace of an output converted to sRGB")
struct EXIFColourSpaceTests {
    @Test("A source's ColorSpace (Uncalibrated, as iPhones write for Display P3) becomes 1 in place; an absent one is added; without sRGB nothing changes",
          arguments: [false, true])
    func colourSpace(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.exif!.append(EXIFTestTIFF.Entry(EXIFTag.colorSpace, .short([0xFFFF])))
        let item = [0, 0, 0, 0] + t.build().bytes
        func colourSpace(_ item: [UInt8], sRGB: Bool) throws -> UInt32? {
            let payload = try #require(EXIFForJPEG.make(fromHEIFExifItem: item, width: 64, height: 48, requiredFields: true, sRGB: sRGB).app1Payload)
            return try EXIFDirectory(tiff: Array(payload.dropFirst(6))).unsignedInteger(.exif, EXIFTag.colorSpace)
        }
        #expect(try colourSpace(item, sRGB: true) == 1)
        #expect(try colourSpace(item, sRGB: false) == 0xFFFF)
        let without = [0, 0, 0, 0] + EXIFTestTIFF.typical(bigEndian: bigEndian).build().bytes
        #expect(try colourSpace(without, sRGB: true) == 1)
        #expect(try colourSpace(without, sRGB: false) == nil)
    }
}
