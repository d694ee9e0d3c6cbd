import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata

@Suite("EXIF in-place edits")
struct EXIFEditorTests {
    typealias Entry = EXIFTestTIFF.Entry

    /// Runs `make` on `t` and returns (input TIFF, output TIFF, output directory).
    func convert(_ t: EXIFTestTIFF, width: Int = 3024, height: Int = 4032) throws -> ([UInt8], [UInt8], EXIFDirectory) {
        let tiff = t.build().bytes
        let result = EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: width, height: height)
        let payload = try #require(result.app1Payload)
        #expect(payload.starts(with: JPEGAPPSignature.exif))
        return (tiff, Array(payload.dropFirst(6)), try EXIFDirectory(app1Payload: payload))
    }

    /// Offsets at which `a` and `b` differ.
    func differences(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        (0..<min(a.count, b.count)).filter { a[$0] != b[$0] }
    }

    @Test("Orientation SHORT → 1 in IFD0 and IFD1; dimensions updated; nothing else changes", arguments: [false, true])
    func typical(bigEndian: Bool) throws {
        let (input, output, dir) = try convert(.typical(bigEndian: bigEndian))
        #expect(input.count == output.count)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
        #expect(dir.unsignedInteger(.ifd1, EXIFTag.orientation) == 1)
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 3024)
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelYDimension) == 4032)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.imageWidth) == 3024)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.imageLength) == 4032)
        #expect(dir.string(.ifd0, EXIFTag.make) == "Apple")
        #expect(dir.rationals(.gps, EXIFTag.gpsLatitude)?.count == 3)
        // Only the value fields of the six patched entries may differ.
        let before = try EXIFDirectory(tiff: input)
        let allowed: Set<Int> = Set([
            before.entry(.ifd0, EXIFTag.orientation), before.entry(.ifd1, EXIFTag.orientation),
            before.entry(.exif, EXIFTag.pixelXDimension), before.entry(.exif, EXIFTag.pixelYDimension),
            before.entry(.ifd0, EXIFTag.imageWidth), before.entry(.ifd0, EXIFTag.imageLength),
        ].compactMap { $0 }.flatMap { ($0.entryOffset + 8)..<($0.entryOffset + 12) })
        #expect(Set(differences(input, output)).isSubset(of: allowed))
    }

    @Test("Orientation of odd types becomes inline SHORT count 1", arguments: [
        EXIFTestTIFF.Value.long([8]),
        .ascii("6 rotated"),
        .short([6, 6, 6]),
        .rational([(6, 1)]),
        .raw(type: 0x7777, count: 0xFFFF_FFFF, bytes: [1, 2, 3, 4]),
        .raw(type: TIFFFieldType.short, count: 0, bytes: [0, 0, 0, 0]),
    ])
    func oddOrientation(value: EXIFTestTIFF.Value) throws {
        for bigEndian in [false, true] {
            var t = EXIFTestTIFF()
            t.bigEndian = bigEndian
            t.ifd0 = [Entry(EXIFTag.make, .ascii("Sony")), Entry(EXIFTag.orientation, value)]
            t.ifd1 = [Entry(EXIFTag.orientation, value)]
            let (input, output, dir) = try convert(t)
            #expect(input.count == output.count)
            for kind in [EXIFIFDKind.ifd0, .ifd1] {
                let entry = try #require(dir.entry(kind, EXIFTag.orientation))
                #expect(entry.type == TIFFFieldType.short)
                #expect(entry.count == 1)
                #expect(dir.unsignedInteger(kind, EXIFTag.orientation) == 1)
                // Left-justified SHORT, spare bytes zero.
                let field = Array(output[(entry.entryOffset + 8)..<(entry.entryOffset + 12)])
                #expect(field == (bigEndian ? [0, 1, 0, 0] : [1, 0, 0, 0]))
            }
            #expect(dir.string(.ifd0, EXIFTag.make) == "Sony")
        }
    }

    @Test("Orientation is not added when absent")
    func absentOrientation() throws {
        var t = EXIFTestTIFF()
        t.ifd0 = [Entry(EXIFTag.make, .ascii("Canon"))]
        let (input, output, dir) = try convert(t)
        #expect(input == output)
        #expect(dir.entry(.ifd0, EXIFTag.orientation) == nil)
    }

    @Test("SHORT dimensions stay SHORT when they fit, become LONG when they don't", arguments: [false, true])
    func shortToLong(bigEndian: Bool) throws {
        var t = EXIFTestTIFF()
        t.bigEndian = bigEndian
        t.ifd0 = [Entry(EXIFTag.imageWidth, .short([100])), Entry(EXIFTag.imageLength, .short([200]))]
        t.exif = [Entry(EXIFTag.pixelXDimension, .short([100])), Entry(EXIFTag.pixelYDimension, .short([200]))]

        let (_, _, small) = try convert(t, width: 65535, height: 300)
        #expect(small.entry(.exif, EXIFTag.pixelXDimension)?.type == TIFFFieldType.short)
        #expect(small.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 65535)
        #expect(small.unsignedInteger(.exif, EXIFTag.pixelYDimension) == 300)

        let (input, output, big) = try convert(t, width: 70_000, height: 300)
        #expect(input.count == output.count)
        #expect(big.entry(.exif, EXIFTag.pixelXDimension)?.type == TIFFFieldType.long)
        #expect(big.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 70_000)
        #expect(big.entry(.exif, EXIFTag.pixelYDimension)?.type == TIFFFieldType.short)
        #expect(big.entry(.ifd0, EXIFTag.imageWidth)?.type == TIFFFieldType.long)
        #expect(big.unsignedInteger(.ifd0, EXIFTag.imageWidth) == 70_000)
        #expect(big.unsignedInteger(.ifd0, EXIFTag.imageLength) == 300)
    }

    @Test("dimensions of odd types become LONG; absent ones are not added")
    func oddDimensions() throws {
        var t = EXIFTestTIFF()
        t.ifd0 = [Entry(EXIFTag.make, .ascii("X"))]
        t.exif = [Entry(EXIFTag.pixelXDimension, .rational([(1, 1)]))]
        let (_, _, dir) = try convert(t, width: 640, height: 480)
        #expect(dir.entry(.exif, EXIFTag.pixelXDimension)?.type == TIFFFieldType.long)
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 640)
        #expect(dir.entry(.exif, EXIFTag.pixelYDimension) == nil)
        #expect(dir.entry(.ifd0, EXIFTag.imageWidth) == nil)
    }

    @Test("invalid sizes leave dimensions alone with a warning", arguments: [(0, 10), (-5, 10), (10, Int.max)])
    func invalidSize(width: Int, height: Int) throws {
        let tiff = EXIFTestTIFF.typical().build().bytes
        let result = EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: width, height: height)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 4032)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.contains("not valid for EXIF") == true)
    }

    @Test("the editor reports what it patched, and its edited directory equals a re-read", arguments: [false, true])
    func editorCounts(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.ifd0[4] = Entry(EXIFTag.orientation, .short([3, 3, 3]))  // out-of-line before, inline after
        let dir = try EXIFDirectory(tiff: t.build().bytes)
        var editor = EXIFInPlaceEditor(directory: dir)
        #expect(editor.setOrientationUpright() == 2)
        #expect(editor.setPixelDimensions(width: 70_000, height: 2) == 4)
        #expect(editor.tiff.count == dir.tiff.count)
        #expect(editor.rewrittenEntries.count == 6)
        let reread = try TIFFReader.read(editor.tiff)
        #expect(editor.editedDirectory == reread)
        #expect(reread.entry(.ifd0, EXIFTag.orientation)?.isInline == true)
    }
}
