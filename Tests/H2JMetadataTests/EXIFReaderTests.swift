import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata

@Suite("EXIF TIFF reader")
struct EXIFReaderTests {
    @Test("walks IFD0, ExifIFD, GPS, Interop and IFD1", arguments: [false, true])
    func walksAllIFDs(bigEndian: Bool) throws {
        let layout = EXIFTestTIFF.typical(bigEndian: bigEndian).build()
        let dir = try EXIFDirectory(tiff: layout.bytes)
        #expect(dir.bigEndian == bigEndian)
        #expect(dir.unreadable.isEmpty)
        #expect(dir.ifd(.ifd0)?.offset == layout.ifd0)
        #expect(dir.ifd(.exif)?.offset == layout.exif)
        #expect(dir.ifd(.gps)?.offset == layout.gps)
        #expect(dir.ifd(.interop)?.offset == layout.interop)
        #expect(dir.ifd(.ifd1)?.offset == layout.ifd1)
        #expect(dir.ifds.count == 5)
    }

    @Test("reads SHORT, LONG, ASCII and RATIONAL values", arguments: [false, true])
    func readsValues(bigEndian: Bool) throws {
        let layout = EXIFTestTIFF.typical(bigEndian: bigEndian).build()
        let dir = try EXIFDirectory(tiff: layout.bytes)
        #expect(dir.string(.ifd0, EXIFTag.make) == "Apple")
        #expect(dir.string(.ifd0, EXIFTag.model) == "iPhone 12 Pro")
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 6)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.imageWidth) == 4032)
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 4032)
        #expect(dir.string(.exif, EXIFTag.dateTimeOriginal) == "2023:04:27 19:44:18")
        #expect(dir.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
        #expect(dir.rationals(.gps, EXIFTag.gpsLatitude) == [TIFFRational(47, 1), TIFFRational(13, 1), TIFFRational(38_240_039, 1_000_000)])
        #expect(dir.rationals(.ifd0, 0x011A)?.first?.doubleValue == 72)
        #expect(dir.string(.interop, 0x0001) == "R98")
        #expect(dir.unsignedInteger(.ifd1, EXIFTag.jpegInterchangeFormat).map(Int.init) == layout.thumbnail)
        #expect(dir.unsignedInteger(.ifd1, EXIFTag.jpegInterchangeFormatLength) == 64)
        #expect(dir.rawValue(.exif, EXIFTag.makerNote)?.starts(with: Array("Apple iOS".utf8)) == true)
    }

    @Test("wrong-type and missing lookups return nil")
    func wrongType() throws {
        let dir = try EXIFDirectory(tiff: EXIFTestTIFF.typical().build().bytes)
        #expect(dir.rationals(.ifd0, EXIFTag.make) == nil)
        #expect(dir.unsignedIntegers(.ifd0, EXIFTag.make) == nil)
        #expect(dir.string(.ifd0, EXIFTag.orientation) == nil)
        #expect(dir.entry(.ifd0, 0x9999) == nil)
        #expect(dir.entry(.subIFD, EXIFTag.make) == nil)
    }

    @Test("signed rationals, BYTE arrays, multi-SHORT arrays", arguments: [false, true])
    func otherTypes(bigEndian: Bool) throws {
        var t = EXIFTestTIFF()
        t.bigEndian = bigEndian
        let neg = UInt32(bitPattern: -3)
        let b = EXIFTestTIFF(bigEndian: bigEndian)
        t.ifd0 = [
            EXIFTestTIFF.Entry(0x0001, .raw(type: TIFFFieldType.srational, count: 1, bytes: b.u32(neg) + b.u32(4))),
            EXIFTestTIFF.Entry(0x0002, .byte([1, 2, 3, 4, 5])),
            EXIFTestTIFF.Entry(0x0003, .short([1, 65535, 7])),
            EXIFTestTIFF.Entry(0x0004, .ascii("")),
        ]
        let dir = try EXIFDirectory(tiff: t.build().bytes)
        #expect(dir.rationals(.ifd0, 0x0001) == [TIFFRational(-3, 4)])
        #expect(dir.unsignedIntegers(.ifd0, 0x0002) == [1, 2, 3, 4, 5])
        #expect(dir.unsignedIntegers(.ifd0, 0x0003) == [1, 65535, 7])
        #expect(dir.string(.ifd0, 0x0004) == "")
    }

    @Test("APP1 payload and HEIF item entry points")
    func entryPoints() throws {
        let tiff = EXIFTestTIFF.typical(bigEndian: true).build().bytes
        let fromPayload = try EXIFDirectory(app1Payload: JPEGAPPSignature.exif + tiff)
        #expect(fromPayload.string(.ifd0, EXIFTag.make) == "Apple")
        let fromItem = try EXIFDirectory(heifExifItem: EXIFTestSupport.heifItem(tiff: tiff))
        #expect(fromItem.tiff == tiff)
        #expect(throws: EXIFError.noTIFFHeader) { try EXIFDirectory(app1Payload: tiff) }
        #expect(throws: EXIFError.badTIFFHeader) { try EXIFDirectory(tiff: [0x49, 0x49, 0x2A]) }
    }

    @Test("error descriptions name the IFD and numbers")
    func errorDescriptions() {
        #expect(EXIFError.ifdLoop(ifd: .ifd1, offset: 8).description == "IFD1 at offset 8 was already read (IFD loop)")
        #expect(EXIFError.badPointer(ifd: .ifd0, tag: 0x8769, type: 2, count: 4).description.contains("0x8769"))
        #expect(EXIFText.bytes(0) == "0")
        #expect(EXIFText.bytes(999) == "999")
        #expect(EXIFText.bytes(1000) == "1,000")
        #expect(EXIFText.bytes(1_234_567) == "1,234,567")
    }
}
