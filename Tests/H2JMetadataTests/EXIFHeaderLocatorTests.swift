import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

@Suite("EXIF TIFF header location")
struct EXIFHeaderLocatorTests {
    let tiffLE = EXIFTestTIFF.typical(bigEndian: false).build().bytes
    let tiffBE = EXIFTestTIFF.typical(bigEndian: true).build().bytes

    @Test("offset 0, TIFF right after the offset field", arguments: [false, true])
    func offsetZero(bigEndian: Bool) {
        let item = EXIFTestSupport.heifItem(tiff: bigEndian ? tiffBE : tiffLE)
        #expect(TIFFHeaderLocator.locate(in: item) == 4)
    }

    @Test("offset 6 pointing past Exif\\0\\0")
    func offsetSixWithSignature() {
        let item = EXIFTestSupport.heifItem(tiff: tiffLE, offset: 6, prefix: JPEGAPPSignature.exif)
        #expect(TIFFHeaderLocator.locate(in: item) == 10)
    }

    @Test("offset 0 but Exif\\0\\0 first anyway")
    func offsetZeroWithSignature() {
        let item = EXIFTestSupport.heifItem(tiff: tiffBE, offset: 0, prefix: JPEGAPPSignature.exif)
        #expect(TIFFHeaderLocator.locate(in: item) == 10)
    }

    @Test("embedded JPEG APP1 header, with a correct or a zero offset", arguments: [UInt32(10), 0])
    func embeddedAPP1(offset: UInt32) {
        let app1: [UInt8] = [0xFF, 0xE1, 0x38, 0x26] + JPEGAPPSignature.exif
        let item = EXIFTestSupport.heifItem(tiff: tiffLE, offset: offset, prefix: app1)
        #expect(TIFFHeaderLocator.locate(in: item) == 14)
    }

    @Test("bogus offsets fall back to the signature or a scan", arguments: [UInt32(0xFFFF_FFF0), 3, 100_000, 0x7FFF_FFFF])
    func bogusOffset(offset: UInt32) {
        let withSignature = EXIFTestSupport.heifItem(tiff: tiffLE, offset: offset, prefix: JPEGAPPSignature.exif)
        #expect(TIFFHeaderLocator.locate(in: withSignature) == 10)
        let garbage: [UInt8] = [0x12, 0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00]  // bare magic, bad IFD0
        let scanned = EXIFTestSupport.heifItem(tiff: tiffBE, offset: offset, prefix: garbage)
        #expect(TIFFHeaderLocator.locate(in: scanned) == 4 + garbage.count)
    }

    @Test("offset counted from the item start")
    func offsetFromItemStart() {
        let item = EXIFTestSupport.heifItem(tiff: tiffLE, offset: 10, prefix: [9, 8, 7, 6, 5, 4])
        #expect(TIFFHeaderLocator.locate(in: item) == 10)
    }

    @Test("no header at all")
    func noHeader() {
        #expect(TIFFHeaderLocator.locate(in: []) == nil)
        #expect(TIFFHeaderLocator.locate(in: [0, 0, 0]) == nil)
        #expect(TIFFHeaderLocator.locate(in: [0, 0, 0, 0]) == nil)
        #expect(TIFFHeaderLocator.locate(in: [UInt8](repeating: 0xAB, count: 5000)) == nil)
        #expect(TIFFHeaderLocator.locate(in: EXIFTestSupport.heifItem(tiff: [], prefix: JPEGAPPSignature.exif)) == nil)
        let result = EXIFForJPEG.make(fromHEIFExifItem: [1, 2, 3, 4, 5, 6, 7, 8], width: 10, height: 10)
        #expect(result == JPEGExif(app1Payload: nil, warnings: [Warning(.exifDropped, "EXIF item has no TIFF header; dropped it")]))
    }

    @Test("a bare magic number is accepted so the reader can say what is wrong")
    func magicOnlyFallback() {
        let broken: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x00, 0x10, 0x00, 0x00]  // IFD0 at 4,096 in an 8-byte blob
        let item = EXIFTestSupport.heifItem(tiff: broken, offset: 6, prefix: JPEGAPPSignature.exif)
        #expect(TIFFHeaderLocator.locate(in: item) == 10)
        let result = EXIFForJPEG.make(fromHEIFExifItem: item, width: 10, height: 10)
        #expect(result.app1Payload == nil)
        #expect(result.warnings.map(\.message) == ["EXIF is unreadable: IFD0 offset 4,096 is past the end of the 8-byte TIFF data; dropped it"])
    }

    @Test("a plausible header is preferred over an earlier bare magic number")
    func plausibleBeatsMagic() {
        let decoy: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x02]
        let item = EXIFTestSupport.heifItem(tiff: tiffLE, offset: 0, prefix: decoy)
        #expect(TIFFHeaderLocator.locate(in: item) == 12)
    }
}
