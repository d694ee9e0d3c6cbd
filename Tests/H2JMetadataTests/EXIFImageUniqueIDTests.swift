import H2JTestSupport
import Testing
@testable import H2JMetadata

/// The provenance mark in EXIF: ImageUniqueID added after fitting, never at the cost of
/// source data.
@Suite("EXIF ImageUniqueID (provenance)")
struct EXIFImageUniqueIDTests {
    typealias Entry = EXIFTestTIFF.Entry

    static let mark = ProvenanceMark(sourceName: "a.heic", sourceSHA256: String(repeating: "0f", count: 32), mode: .keep,
                                     quality: 90, version: "test")

    func make(_ tiff: [UInt8], limit: Int = EXIFForJPEG.maxTIFFBytes, id: String? = mark.imageUniqueID) -> JPEGExif {
        EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: 640, height: 480,
                         imageUniqueID: id, tiffLimit: limit)
    }

    @Test("added to an ExifIFD without one, as ASCII count 33; the rest reads the same", arguments: [false, true])
    func added(bigEndian: Bool) throws {
        let tiff = EXIFTestTIFF.typical(bigEndian: bigEndian).build().bytes
        let plain = try #require(EXIFTestSupport.directory(make(tiff, id: nil)))
        let result = make(tiff)
        #expect(result.warnings.isEmpty)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(Self.mark.imageUniqueID.count == 32)
        #expect(dir.string(.exif, EXIFTag.imageUniqueID) == Self.mark.imageUniqueID)
        let entry = try #require(dir.entry(.exif, EXIFTag.imageUniqueID))
        #expect(entry.type == TIFFFieldType.ascii && entry.count == 33)
        #expect(EXIFTestSupport.contents(dir).filter { !$0.contains("0xA420") } == EXIFTestSupport.contents(plain))
    }

    @Test("a source's own ImageUniqueID is kept")
    func kept() throws {
        var t = EXIFTestTIFF.typical()
        t.exif!.append(Entry(EXIFTag.imageUniqueID, .ascii("SOURCE-ID")))
        let result = make(t.build().bytes)
        #expect(result.warnings.isEmpty)
        #expect(EXIFTestSupport.directory(result)?.string(.exif, EXIFTag.imageUniqueID) == "SOURCE-ID")
        #expect(result.app1Payload?.count == t.build().bytes.count + 6)
    }

    @Test("a source without ExifIFD gets one; a source without EXIF gets none")
    func noExifIFD() throws {
        var t = EXIFTestTIFF.typical()
        t.exif = nil
        t.interop = nil
        let dir = try #require(EXIFTestSupport.directory(make(t.build().bytes)))
        #expect(dir.string(.exif, EXIFTag.imageUniqueID) == Self.mark.imageUniqueID)
        #expect(dir.string(.ifd0, EXIFTag.make) == "Apple")
        #expect(make([]).app1Payload == nil)
        #expect(make([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]).app1Payload == nil)
    }

    @Test("fitting comes first: without room the mark is left out, with a warning, and nothing more is dropped")
    func noRoom() throws {
        var t = EXIFTestTIFF.typical(thumbnailSize: 600)
        t.thumbnailGap = 2_000
        let tiff = t.build().bytes
        // Exactly the room the source needs once repacked: the thumbnail stays, no mark.
        guard case let .packed(bytes) = try TIFFLayout(EXIFDirectory(tiff: tiff)).packed(cap: .max) else {
            Issue.record("not packed")
            return
        }
        let packed = bytes.count
        let result = make(tiff, limit: packed)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.entry(.exif, EXIFTag.imageUniqueID) == nil)
        #expect(dir.ifd(.ifd1) != nil)
        #expect(result.warnings.count == 2)
        #expect(result.warnings[0].message.hasPrefix("repacked the EXIF"))
        #expect(result.warnings[1].message.hasPrefix("did not add the provenance ImageUniqueID to the EXIF: the EXIF would grow to "))
        #expect(result.warnings[1].message.hasSuffix("bytes, over the \(EXIFText.bytes(packed + 6)) a JPEG APP1 holds"))
        // With room for it, it is there.
        let roomy = make(tiff, limit: packed + 200)
        #expect(EXIFTestSupport.directory(roomy)?.string(.exif, EXIFTag.imageUniqueID) == Self.mark.imageUniqueID)
    }

    @Test("an unreadable ExifIFD is not replaced: warning, EXIF otherwise kept")
    func unreadableExifIFD() throws {
        let layout = EXIFTestTIFF.typical().build()
        var tiff = layout.bytes
        TIFFPatching.put32(0xFFFF_0000, at: layout.entryOffsets[layout.ifd0]![EXIFTag.exifIFDPointer]! + 8, in: &tiff, bigEndian: false)
        let result = make(tiff)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.ifd(.exif) == nil)
        #expect(result.warnings.last?.message == "did not add the provenance ImageUniqueID to the EXIF: ExifIFD is unreadable, so it cannot be edited")
    }
}
