import H2JTestSupport
import Testing
@testable import H2JMetadata

/// `dropThumbnail`: an EXIF thumbnail (IFD1) is left out of pixels that are not the coded
/// image's (resized, turned, cropped), and everything else is kept.
@Suite("EXIF thumbnail dropped for changed pixels")
struct EXIFThumbnailDropTests {
    @Test("IFD1 and its thumbnail go; IFD0, ExifIFD and GPS stay, the dimensions the output's", arguments: [false, true])
    func dropped(bigEndian: Bool) throws {
        let tiff = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 4000).build().bytes
        let kept = EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: 320, height: 240)
        let dropped = EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: 320, height: 240, dropThumbnail: true)
        #expect(dropped.warnings.isEmpty)
        let before = try #require(EXIFTestSupport.directory(kept)), after = try #require(EXIFTestSupport.directory(dropped))
        #expect(before.ifd(.ifd1) != nil && after.ifd(.ifd1) == nil)
        #expect(try #require(dropped.app1Payload).count < kept.app1Payload!.count - 4000)
        #expect(EXIFTestSupport.contents(after) == EXIFTestSupport.contents(before).filter { !$0.lowercased().hasPrefix("ifd1") })
        #expect(after.unsignedIntegers(try #require(after.entry(.exif, EXIFTag.pixelXDimension)))?.first == 320)
    }
}
