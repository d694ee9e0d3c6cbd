import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

@Suite("Append-IFD edit")
struct TIFFIFDAppenderTests {
    typealias Entry = EXIFTestTIFF.Entry

    static let id = "0123456789ABCDEF0123456789ABCDEF"
    static var idValue: TIFFValue { TIFFValue.ascii(id)! }

    /// Offsets at which `a` and `b` (over `a`'s length) differ.
    func changedBytes(_ a: [UInt8], _ b: [UInt8]) -> [Int] {
        (0..<a.count).filter { $0 >= b.count || a[$0] != b[$0] }
    }

    /// `contents` of `dir` without entries of the tags listed.
    func contents(_ dir: EXIFDirectory, except tags: [UInt16] = []) -> [String] {
        EXIFTestSupport.contents(dir).filter { line in !tags.contains { line.contains("0x\(EXIFText.hex($0)) ") } }
    }

    @Test("ImageUniqueID added to an existing ExifIFD: only its pointer changes, old values stay put", arguments: [false, true])
    func addToExifIFD(bigEndian: Bool) throws {
        let layout = EXIFTestTIFF.typical(bigEndian: bigEndian).build()
        let before = try EXIFDirectory(tiff: layout.bytes)
        let after = try TIFFIFDAppender.set([EXIFTag.imageUniqueID: Self.idValue], in: .exif, of: before)
        #expect(after.string(.exif, EXIFTag.imageUniqueID) == Self.id)
        let entry = try #require(after.entry(.exif, EXIFTag.imageUniqueID))
        #expect(entry.type == TIFFFieldType.ascii && entry.count == 33)
        #expect(entry.valueOffset! % 2 == 0 && after.ifd(.exif)!.offset % 2 == 0)
        // Everything a reader saw is still there, plus the new entry, in tag order.
        #expect(contents(after, except: [EXIFTag.imageUniqueID]) == contents(before))
        let tags = after.ifd(.exif)!.entries.map(\.tag)
        #expect(tags == tags.sorted())
        // The old bytes are untouched but for IFD0's ExifIFD pointer value.
        let pointer = before.entry(.ifd0, EXIFTag.exifIFDPointer)!.entryOffset + 8
        #expect(Set(changedBytes(layout.bytes, after.tiff)).isSubset(of: Set(pointer..<(pointer + 4))))
        #expect(after.ifd(.exif)!.offset >= layout.bytes.count)
        #expect(after.unreadable.isEmpty)
    }

    @Test("Replacing values: inline by out-of-line and back; the old value bytes remain", arguments: [false, true])
    func replace(bigEndian: Bool) throws {
        let layout = EXIFTestTIFF.typical(bigEndian: bigEndian).build()
        let before = try EXIFDirectory(tiff: layout.bytes)
        let model = try #require(TIFFValue.ascii("X"))  // was "iPhone 12 Pro", out of line
        let orientation = try #require(TIFFValue.long([1, 2, 3], bigEndian: bigEndian))  // was an inline SHORT
        let after = try TIFFIFDAppender.set([EXIFTag.model: model, EXIFTag.orientation: orientation], in: .ifd0, of: before)
        #expect(after.string(.ifd0, EXIFTag.model) == "X")
        #expect(after.unsignedIntegers(.ifd0, EXIFTag.orientation) == [1, 2, 3])
        #expect(after.ifd(.ifd0)!.entries.count == before.ifd(.ifd0)!.entries.count)
        #expect(contents(after, except: [EXIFTag.model, EXIFTag.orientation]) == contents(before, except: [EXIFTag.model, EXIFTag.orientation]))
        // IFD0 moved: the header points at the copy; nothing else of the old bytes changed.
        #expect(Set(changedBytes(layout.bytes, after.tiff)).isSubset(of: Set(4..<8)))
        #expect(after.ifds[0].offset != before.ifds[0].offset)
        // The copy keeps the next-IFD link: IFD1 and its thumbnail are still read.
        #expect(after.ifd(.ifd1)?.offset == layout.ifd1)
    }

    @Test("GPS, Interop and IFD1 edits repoint their own parent pointer in place", arguments: [false, true])
    func otherIFDs(bigEndian: Bool) throws {
        let layout = EXIFTestTIFF.typical(bigEndian: bigEndian).build()
        let before = try EXIFDirectory(tiff: layout.bytes)
        let text = try #require(TIFFValue.ascii("edited"))
        for (kind, pointer) in [(EXIFIFDKind.gps, before.entry(.ifd0, EXIFTag.gpsIFDPointer)!.entryOffset + 8),
                                (.interop, before.entry(.exif, EXIFTag.interopIFDPointer)!.entryOffset + 8),
                                (.ifd1, before.ifds[0].nextPointerOffset!)] {
            let after = try TIFFIFDAppender.set([0xC000: text], in: kind, of: before)
            #expect(after.string(kind, 0xC000) == "edited", "\(kind)")
            #expect(Set(changedBytes(layout.bytes, after.tiff)).isSubset(of: Set(pointer..<(pointer + 4))), "\(kind)")
            #expect(contents(after, except: [0xC000]) == contents(before), "\(kind)")
        }
    }

    @Test("A source without ExifIFD gets one: new ExifIFD, new IFD0 with the pointer, new header offset", arguments: [false, true])
    func createExifIFD(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.exif = nil
        t.interop = nil
        t.trailingPadding = 1  // odd length: the appended directories must still be even
        let layout = t.build()
        let before = try EXIFDirectory(tiff: layout.bytes)
        #expect(before.ifd(.exif) == nil)
        let after = try TIFFIFDAppender.set([EXIFTag.imageUniqueID: Self.idValue], in: .exif, of: before)
        #expect(after.string(.exif, EXIFTag.imageUniqueID) == Self.id)
        #expect(after.ifd(.exif)!.entries.count == 1)
        #expect(after.ifds[0].offset > layout.bytes.count && after.ifds[0].offset % 2 == 0)
        #expect(after.ifds[0].entry(EXIFTag.exifIFDPointer)?.type == TIFFFieldType.long)
        #expect(contents(after, except: [EXIFTag.imageUniqueID, EXIFTag.exifIFDPointer]) == contents(before))
        #expect(after.ifd(.ifd1)?.offset == layout.ifd1)
        #expect(Set(changedBytes(layout.bytes, after.tiff)).isSubset(of: Set(4..<8)))
    }

    @Test("A missing InteropIFD: ExifIFD gains the pointer (appended), IFD0's pointer is patched in place")
    func createInterop() throws {
        var t = EXIFTestTIFF.typical(bigEndian: true)
        t.interop = nil
        let layout = t.build()
        let before = try EXIFDirectory(tiff: layout.bytes)
        let index = try #require(TIFFValue.ascii("R98"))
        let after = try TIFFIFDAppender.set([0x0001: index], in: .interop, of: before)
        #expect(after.string(.interop, 0x0001) == "R98")
        #expect(after.ifd(.exif)!.offset != layout.exif)
        #expect(after.ifds[0].offset == layout.ifd0)
        let changed: [UInt16] = [0x0001, EXIFTag.interopIFDPointer]  // 0x0001 is also GPSLatitudeRef
        #expect(contents(after, except: changed) == contents(before, except: changed))
        #expect(after.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
    }

    @Test("A missing GPS IFD and IFD1: IFD0 gains the GPS pointer; IFD1 hangs off IFD0's next field")
    func createGPSAndIFD1() throws {
        var t = EXIFTestTIFF.typical()
        t.gps = nil
        t.ifd1 = nil
        t.thumbnail = nil
        let before = try EXIFDirectory(tiff: t.build().bytes)
        let gps = try TIFFIFDAppender.set([EXIFTag.gpsLatitudeRef: TIFFValue.ascii("N")!], in: .gps, of: before)
        #expect(gps.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
        #expect(gps.string(.exif, EXIFTag.dateTimeOriginal) == "2023:04:27 19:44:18")
        let ifd1 = try TIFFIFDAppender.set([0x0103: TIFFValue(type: TIFFFieldType.short, count: 1, bytes: [6, 0])!], in: .ifd1, of: gps)
        #expect(ifd1.unsignedInteger(.ifd1, 0x0103) == 6)
        #expect(ifd1.ifds[0].offset == gps.ifds[0].offset)  // next field patched in place
        #expect(ifd1.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
    }

    @Test("A SHORT pointer entry becomes a LONG when repointed")
    func shortPointer() throws {
        var t = EXIFTestTIFF.typical()
        t.gps = nil
        t.ifd0.append(Entry(EXIFTag.gpsIFDPointer, .short([0])))
        var layout = t.build()
        // Point the SHORT at a real little GPS IFD appended by hand: 1 entry, LatitudeRef "S".
        let gpsOffset = layout.bytes.count
        layout.bytes += [1, 0, 1, 0, 2, 0, 2, 0, 0, 0, 0x53, 0, 0, 0, 0, 0, 0, 0]
        TIFFPatching.put16(UInt16(gpsOffset), at: layout.entryOffsets[layout.ifd0]![EXIFTag.gpsIFDPointer]! + 8,
                           in: &layout.bytes, bigEndian: false)
        let before = try EXIFDirectory(tiff: layout.bytes)
        #expect(before.string(.gps, EXIFTag.gpsLatitudeRef) == "S")
        let after = try TIFFIFDAppender.set([EXIFTag.gpsLongitudeRef: TIFFValue.ascii("W")!], in: .gps, of: before)
        #expect(after.entry(.ifd0, EXIFTag.gpsIFDPointer)?.type == TIFFFieldType.long)
        #expect(after.string(.gps, EXIFTag.gpsLatitudeRef) == "S" && after.string(.gps, EXIFTag.gpsLongitudeRef) == "W")
    }

    @Test("Refusals: unreadable target, SubIFD, an ExifIFD only IFD1 points at")
    func refusals() throws {
        let layout = EXIFTestTIFF.typical().build()
        var broken = layout.bytes
        TIFFPatching.put32(0xFFFF_FF00, at: layout.entryOffsets[layout.ifd0]![EXIFTag.exifIFDPointer]! + 8, in: &broken, bigEndian: false)
        let dir = try EXIFDirectory(tiff: broken)
        #expect(throws: EXIFError.editTargetUnreadable(ifd: .exif)) {
            try TIFFIFDAppender.set([EXIFTag.imageUniqueID: Self.idValue], in: .exif, of: dir)
        }
        #expect(throws: EXIFError.editTargetUnreadable(ifd: .exif)) {  // it would have to gain the Interop pointer
            try TIFFIFDAppender.set([0x0001: Self.idValue], in: .interop, of: dir)
        }
        #expect(throws: EXIFError.ifdNotEditable(ifd: .subIFD)) {
            try TIFFIFDAppender.set([0x0001: Self.idValue], in: .subIFD, of: dir)
        }
        // ExifIFD reached from IFD1 only.
        var t = EXIFTestTIFF.typical()
        t.exif = nil
        t.interop = nil
        t.ifd1 = [Entry(EXIFTag.exifIFDPointer, .long([0]))]
        var odd = t.build()
        let exifAt = odd.bytes.count
        odd.bytes += [0, 0, 0, 0, 0, 0]  // an empty IFD
        TIFFPatching.put32(UInt32(exifAt), at: odd.entryOffsets[odd.ifd1!]![EXIFTag.exifIFDPointer]! + 8, in: &odd.bytes, bigEndian: false)
        let oddDir = try EXIFDirectory(tiff: odd.bytes)
        #expect(oddDir.ifd(.exif)?.parent == oddDir.index(of: .ifd1))
        #expect(throws: EXIFError.nonStandardParent(ifd: .exif)) {
            try TIFFIFDAppender.set([EXIFTag.imageUniqueID: Self.idValue], in: .exif, of: oddDir)
        }
    }

    @Test("exiftool reads the appended ExifIFD and every old tag, and validates no worse",
          .enabled(if: ExifTool.isAvailable, "exiftool is not installed"), arguments: [false, true])
    func exiftoolReadsIt(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.exif!.append(Entry(0x9000, .undefined(Array("0232".utf8))))
        let before = try EXIFDirectory(tiff: t.build().bytes)
        let after = try TIFFIFDAppender.set([EXIFTag.imageUniqueID: Self.idValue], in: .exif, of: before)
        let original = EXIFTestSupport.jpeg(app1Payload: JPEGAPPSignature.exif + before.tiff)
        let edited = EXIFTestSupport.jpeg(app1Payload: JPEGAPPSignature.exif + after.tiff)
        let old = try ExifTool.tags(of: original), new = try ExifTool.tags(of: edited)
        #expect(new["ExifIFD:ImageUniqueID"] == Self.id)
        for key in ["IFD0:Make", "IFD0:Model", "ExifIFD:DateTimeOriginal", "GPS:GPSLatitude", "GPS:GPSLongitudeRef",
                    "InteropIFD:InteropIndex", "IFD1:ThumbnailLength", "ExifIFD:ExifImageWidth"] {
            #expect(old[key] != nil && new[key] == old[key], "\(key)")
        }
        // ExifTool:Warning's wording can follow the file the shared exiftool read before
        // ("Bad MakerNoteApple directory" or "Bad MakerNotes directory"); the warnings are
        // compared below, by validation.
        let ignored = ["System:", "File:", "SourceFile", "ExifTool:Warning"]
        let newTags = new.filter { tag in tag.key != "ExifIFD:ImageUniqueID" && !ignored.contains { tag.key.hasPrefix($0) } }
        let oldTags = old.filter { tag in !ignored.contains { tag.key.hasPrefix($0) } }
        #expect(newTags == oldTags, "\(newTags.filter { oldTags[$0.key] != $0.value }) vs \(oldTags.filter { newTags[$0.key] != $0.value })")
        let warnings = (edited: try ExifTool.validationWarnings(of: edited), original: try ExifTool.validationWarnings(of: original))
        #expect(warnings.edited == warnings.original, "edited: \(warnings.edited); original: \(warnings.original)")
    }
}
