import Testing
@testable import HEIC2JPGKit

@Suite("EXIF fitting into one APP1")
struct EXIFFitterTests {
    typealias Entry = EXIFTestTIFF.Entry

    func make(_ tiff: [UInt8], prefix: [UInt8] = []) -> JPEGExif {
        EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff, prefix: prefix), width: 3024, height: 4032)
    }

    /// The thumbnail bytes as a reader finds them.
    func thumbnail(_ dir: EXIFDirectory) -> [UInt8]? {
        guard let start = dir.unsignedInteger(.ifd1, EXIFTag.jpegInterchangeFormat),
              let length = dir.unsignedInteger(.ifd1, EXIFTag.jpegInterchangeFormatLength) else { return nil }
        return ByteReader(dir.tiff).slice(Int(start), Int(length))
    }

    @Test("small EXIF passes through untouched apart from the edits")
    func fitsAlready() throws {
        var t = EXIFTestTIFF.typical()
        t.trailingPadding = 1000  // unreferenced but it fits: kept
        let tiff = t.build().bytes
        let result = make(tiff)
        #expect(result.warnings.isEmpty)
        #expect(result.app1Payload?.count == tiff.count + 6)
    }

    @Test("exactly 65,533 bytes fits; one more does not fit untrimmed")
    func boundary() throws {
        var t = EXIFTestTIFF.typical()
        let base = t.build().bytes.count
        t.trailingPadding = EXIFAPP1Fitter.maxTIFFBytes - base
        let exact = make(t.build().bytes)
        #expect(exact.app1Payload?.count == 65_533)
        #expect(exact.warnings.isEmpty)
        t.trailingPadding += 1
        let over = make(t.build().bytes)
        #expect(over.app1Payload?.count == base + 6)
        #expect(over.warnings == ["trimmed \(EXIFText.bytes(65_528 - base)) unreferenced bytes from the end of the EXIF (65,534 → \(EXIFText.bytes(base + 6)) bytes) to fit one APP1"])
    }

    @Test("trailing padding is trimmed; everything stays readable", arguments: [false, true])
    func trim(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.trailingPadding = 130_000
        let layout = t.build()
        let result = make(layout.bytes)
        let payload = try #require(result.app1Payload)
        #expect(payload.count == layout.end + 6)
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].hasPrefix("trimmed 130,000 unreferenced bytes"))
        let dir = try EXIFDirectory(app1Payload: payload)
        #expect(dir.string(.ifd0, EXIFTag.model) == "iPhone 12 Pro")
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(dir.rawValue(.exif, EXIFTag.makerNote) != nil)
    }

    @Test("a thumbnail far behind padding is moved down and kept", arguments: [false, true])
    func relocateThumbnail(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 13_244)
        t.thumbnailGap = 100_000
        t.trailingPadding = 50_000
        let layout = t.build()
        let result = make(layout.bytes)
        let payload = try #require(result.app1Payload)
        #expect(payload.count <= 65_533)
        let dir = try EXIFDirectory(app1Payload: payload)
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(dir.ifd(.ifd1)?.offset == layout.ifd1)  // the directory itself did not need to move
        #expect(dir.unsignedInteger(.ifd1, EXIFTag.orientation) == 1)
        #expect(dir.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].hasPrefix("moved the 13,244-byte EXIF thumbnail from offset \(EXIFText.bytes(layout.thumbnail!))"))
        // IFD1 (5 entries + an 8-byte XResolution) then the thumbnail right after it.
        #expect(payload.count == 6 + (layout.ifd1! + 2 + 12 * 5 + 4 + 8) + 13_244)
    }

    @Test("IFD1 itself far behind padding moves too, with its values", arguments: [false, true])
    func relocateIFD1(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 5000)
        t.ifd1Gap = 80_000
        t.thumbnailGap = 7
        let layout = t.build()
        let result = make(layout.bytes)
        let payload = try #require(result.app1Payload)
        let dir = try EXIFDirectory(app1Payload: payload)
        let ifd1 = try #require(dir.ifd(.ifd1))
        #expect(ifd1.offset < layout.ifd1!)
        #expect(ifd1.offset % 2 == 0)
        #expect(dir.rationals(.ifd1, 0x011A) == [TIFFRational(72, 1)])
        #expect(dir.unsignedInteger(.ifd1, EXIFTag.orientation) == 1)
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(dir.unreadable.isEmpty)
        #expect(result.warnings.count == 1 && result.warnings[0].hasPrefix("moved the 5,000-byte EXIF thumbnail"))
    }

    @Test("IFD1 that cannot be moved (strips) is dropped")
    func dropStrips() throws {
        var t = EXIFTestTIFF.typical()
        t.thumbnail = nil
        t.ifd1 = [Entry(EXIFTag.stripOffsets, .long([200])), Entry(EXIFTag.stripByteCounts, .long([10]))]
        t.ifd1Gap = 70_000
        let layout = t.build()
        let result = make(layout.bytes)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.ifd(.ifd1) == nil)
        #expect(dir.ifds.first?.nextIFDOffset == 0)
        #expect(dir.tiff.count == layout.ifd1! - 70_000)
        #expect(result.warnings.count == 1 && result.warnings[0].hasPrefix("dropped IFD1"))
    }

    @Test("a thumbnail too big to fit even when moved is dropped")
    func dropHugeThumbnail() throws {
        let t = EXIFTestTIFF.typical(bigEndian: true, thumbnailSize: 70_000)
        let layout = t.build()
        let result = make(layout.bytes)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.ifd(.ifd1) == nil)
        #expect(dir.string(.exif, EXIFTag.dateTimeOriginal) == "2023:04:27 19:44:18")
        #expect(dir.tiff.count < layout.ifd1! + 1)
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].hasPrefix("dropped the 70,000-byte EXIF thumbnail"))
    }

    @Test("a maker note that cannot fit drops the whole EXIF")
    func tooBig() {
        var t = EXIFTestTIFF.typical()
        t.exif![1] = Entry(EXIFTag.makerNote, .undefined([UInt8](repeating: 0x55, count: 70_000)))
        t.trailingPadding = 3
        let tiff = t.build().bytes
        let result = make(tiff)
        #expect(result.app1Payload == nil)
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].hasPrefix("EXIF is \(EXIFText.bytes(tiff.count + 6)) bytes, over the 65,533 a JPEG APP1 holds; dropped it"))
    }

    @Test("Xiaomi-style item: APP1 header inside, thumbnail, then an unreferenced APP2 blob")
    func xiaomiLike() throws {
        var t = EXIFTestTIFF.typical(thumbnailSize: 13_244)
        t.ifd0.append(Entry(0x9A00, .ascii("POCO F3")))
        var tiff = t.build().bytes
        let junk: [UInt8] = [0xFF, 0xE2, 0xFF, 0xFF] + Array("XMTH".utf8) + [UInt8](repeating: 0x8C, count: 177_800)
        let referenced = tiff.count
        tiff += junk
        let app1: [UInt8] = [0xFF, 0xE1, 0x38, 0x26] + EXIFTestSupport.exifSignature
        let item = EXIFTestSupport.heifItem(tiff: tiff, offset: 10, prefix: app1)
        let result = EXIFForJPEG.make(fromHEIFExifItem: item, width: 2592, height: 1944)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.tiff.count == referenced)
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(dir.string(.ifd0, 0x9A00) == "POCO F3")
        #expect(result.warnings.count == 1 && result.warnings[0].hasPrefix("trimmed 177,808 unreferenced bytes"))
    }

    @Test("fitter steps with a small limit", arguments: [false, true])
    func smallLimit(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 40)
        t.thumbnailGap = 300
        let layout = t.build()
        let item = EXIFTestSupport.heifItem(tiff: layout.bytes)
        // Enough for everything once the gap is gone: relocation.
        let moved = EXIFForJPEG.make(fromHEIFExifItem: item, width: 1, height: 1, tiffLimit: layout.end - 300)
        #expect(moved.warnings.first?.hasPrefix("moved the 40-byte EXIF thumbnail") == true)
        #expect(EXIFTestSupport.directory(moved).flatMap(thumbnail) == t.thumbnail)
        // Room only for what precedes IFD1's data: drop.
        let dropped = EXIFForJPEG.make(fromHEIFExifItem: item, width: 1, height: 1, tiffLimit: layout.ifd1! + 4)
        #expect(dropped.warnings.first?.hasPrefix("dropped the 40-byte EXIF thumbnail") == true)
        #expect(EXIFTestSupport.directory(dropped)?.ifd(.ifd1) == nil)
        // Not even IFD0: nothing.
        let none = EXIFForJPEG.make(fromHEIFExifItem: item, width: 1, height: 1, tiffLimit: 20)
        #expect(none.app1Payload == nil)
        #expect(none.warnings.first?.contains("over the 26 a JPEG APP1 holds; dropped it") == true)
    }
}
