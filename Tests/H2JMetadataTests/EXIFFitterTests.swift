import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

/// The compaction ladder, step by step: `limit` is set so that each test stops at the
/// step it is about.
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

    /// A blob whose referenced bytes are spread out: 20,000 zero bytes before ExifIFD,
    /// InteropIFD and GPS, a thumbnail 30,000 bytes behind IFD1, padding at the end.
    static func spread(bigEndian: Bool = false, makerNote: [UInt8] = Array("Apple iOS\u{0}\u{0}\u{1}MM-DATA".utf8)) -> EXIFTestTIFF {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 2_000)
        t.exif![1] = Entry(EXIFTag.makerNote, .undefined(makerNote))
        t.ifdGap = 20_000
        t.thumbnailGap = 30_000
        t.trailingPadding = 5_000
        return t
    }

    /// The packed size of `tiff` (step 2 alone).
    func packedSize(_ tiff: [UInt8]) throws -> Int {
        guard case let .packed(bytes) = try TIFFLayout(EXIFDirectory(tiff: tiff)).packed(cap: .max) else { return -1 }
        return bytes.count
    }

    /// `contents` without the lines of IFD1 and those matching `tags` in `kind`.
    func contents(_ dir: EXIFDirectory, without tags: [(EXIFIFDKind, UInt16)] = [], ifd1: Bool = true) -> [String] {
        EXIFTestSupport.contents(dir).filter { line in
            (ifd1 || !line.hasPrefix("IFD1 ")) && !tags.contains { line.hasPrefix("\($0.0) 0x\(EXIFText.hex($0.1)) ") }
        }
    }

    // MARK: Before the ladder, and step 1

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
        #expect(over.warnings.map(\.message) == ["trimmed \(EXIFText.bytes(65_528 - base)) unreferenced bytes from the end of the EXIF (65,534 → \(EXIFText.bytes(base + 6)) bytes) to fit one APP1"])
    }

    @Test("1. trailing padding is trimmed; everything stays readable", arguments: [false, true])
    func trim(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.trailingPadding = 130_000
        let layout = t.build()
        let result = make(layout.bytes)
        let payload = try #require(result.app1Payload)
        #expect(payload.count == layout.end + 6)
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].message.hasPrefix("trimmed 130,000 unreferenced bytes"))
        let dir = try EXIFDirectory(app1Payload: payload)
        #expect(dir.string(.ifd0, EXIFTag.model) == "iPhone 12 Pro")
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(dir.rawValue(.exif, EXIFTag.makerNote) != nil)
    }

    @Test("Xiaomi-style item: APP1 header inside, thumbnail, then an unreferenced APP2 blob")
    func xiaomiLike() throws {
        var t = EXIFTestTIFF.typical(thumbnailSize: 13_244)
        t.ifd0.append(Entry(0x9A00, .ascii("POCO F3")))
        var tiff = t.build().bytes
        let junk: [UInt8] = [0xFF, 0xE2, 0xFF, 0xFF] + Array("XMTH".utf8) + [UInt8](repeating: 0x8C, count: 177_800)
        let referenced = tiff.count
        tiff += junk
        let app1: [UInt8] = [0xFF, 0xE1, 0x38, 0x26] + JPEGAPPSignature.exif
        let item = EXIFTestSupport.heifItem(tiff: tiff, offset: 10, prefix: app1)
        let result = EXIFForJPEG.make(fromHEIFExifItem: item, width: 2592, height: 1944)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.tiff.count == referenced)
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(dir.string(.ifd0, 0x9A00) == "POCO F3")
        #expect(result.warnings.count == 1 && result.warnings[0].message.hasPrefix("trimmed 177,808 unreferenced bytes"))
    }

    // MARK: Step 2: repack

    @Test("2. spread-out EXIF is repacked: same contents, maker note moved byte for byte, offsets even", arguments: [false, true])
    func repack(bigEndian: Bool) throws {
        let t = Self.spread(bigEndian: bigEndian)
        let layout = t.build()
        let source = try EXIFDirectory(tiff: layout.bytes)
        let packed = try packedSize(layout.bytes)
        #expect(packed <= layout.end - 3 * 20_000 - 30_000)  // the gaps are gone
        let result = EXIFAPP1Fitter.fit(source, limit: packed)
        let tiff = try #require(result.tiff)
        #expect(tiff.count == packed)
        let dir = try EXIFDirectory(tiff: tiff)
        #expect(EXIFTestSupport.contents(dir) == EXIFTestSupport.contents(source))
        #expect(dir.unreadable.isEmpty)
        #expect(thumbnail(dir) == t.thumbnail)
        let note = try #require(dir.entry(.exif, EXIFTag.makerNote))
        #expect(dir.rawValue(note) == source.rawValue(.exif, EXIFTag.makerNote))
        #expect(note.valueOffset != source.entry(.exif, EXIFTag.makerNote)?.valueOffset)
        for ifd in dir.ifds {
            #expect(ifd.offset % 2 == 0)
            for entry in ifd.entries where !entry.isInline { #expect(entry.valueOffset! % 2 == 0) }
        }
        #expect(result.movedToXMP.isEmpty)
        #expect(result.warnings.map(\.message) == ["repacked the EXIF (IFDs, values and the thumbnail moved next to each other, unreferenced bytes "
            + "dropped; the Apple maker note moved unchanged) to fit one APP1 (\(EXIFText.bytes(layout.bytes.count + 6)) → "
            + "\(EXIFText.bytes(packed + 6)) bytes)"])
    }

    @Test("2. through make: the edits survive the repack and the payload fits")
    func repackThroughMake() throws {
        var t = Self.spread(bigEndian: true)
        t.ifdGap = 40_000
        let result = make(t.build().bytes)
        let payload = try #require(result.app1Payload)
        #expect(payload.count <= 65_533)
        let dir = try EXIFDirectory(app1Payload: payload)
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1 && dir.unsignedInteger(.ifd1, EXIFTag.orientation) == 1)
        #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 3024)
        #expect(dir.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
        #expect(thumbnail(dir) == t.thumbnail)
        #expect(result.warnings.count == 1 && result.warnings[0].message.hasPrefix("repacked the EXIF"))
    }

    @Test("2. strips move too, their offsets patched")
    func repackStripsAndSubIFDs() throws {
        var t = EXIFTestTIFF.typical()
        t.thumbnail = nil
        t.ifd1 = [Entry(EXIFTag.stripOffsets, .long([0, 0])), Entry(EXIFTag.stripByteCounts, .short([6, 5]))]
        t.ifd1Gap = 70_000
        var layout = t.build()
        // Two strips, in bytes added at the end.
        let strips = layout.bytes.count
        layout.bytes += Array("STRIP1strp2".utf8) + [0]
        let ifd1 = try EXIFDirectory(tiff: layout.bytes).ifd(.ifd1)!
        let offsets = ifd1.entry(EXIFTag.stripOffsets)!.valueOffset!
        TIFFPatching.put32(UInt32(strips), at: offsets, in: &layout.bytes, bigEndian: false)
        TIFFPatching.put32(UInt32(strips + 6), at: offsets + 4, in: &layout.bytes, bigEndian: false)
        let source = try EXIFDirectory(tiff: layout.bytes)
        let result = EXIFAPP1Fitter.fit(source, limit: 1_000)
        let dir = try EXIFDirectory(tiff: try #require(result.tiff))
        #expect(EXIFTestSupport.contents(dir) == EXIFTestSupport.contents(source))
        let moved = try #require(dir.unsignedIntegers(.ifd1, EXIFTag.stripOffsets))
        #expect(ByteReader(dir.tiff).slice(Int(moved[0]), 6) == Array("STRIP1".utf8))
        #expect(ByteReader(dir.tiff).slice(Int(moved[1]), 5) == Array("strp2".utf8))
        #expect(result.warnings.count == 1 && result.warnings[0].message.hasPrefix("repacked the EXIF (IFDs and values moved"))
    }

    @Test("2. SubIFDs are repointed, in both byte orders", arguments: [false, true])
    func repackSubIFDs(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.ifd0.append(Entry(EXIFTag.subIFDs, .long([0, 0, 0])))
        t.trailingPadding = 30_000
        var layout = t.build()
        let array = try #require(EXIFDirectory(tiff: layout.bytes).entry(.ifd0, EXIFTag.subIFDs)?.valueOffset)
        for i in 0..<3 {
            // One entry each: ImageDescription "sub N" (6 bytes, out of line right after the IFD).
            let at = layout.bytes.count
            TIFFPatching.put32(UInt32(at), at: array + 4 * i, in: &layout.bytes, bigEndian: bigEndian)
            layout.bytes += t.u16(1) + t.u16(EXIFTag.imageDescription) + t.u16(TIFFFieldType.ascii) + t.u32(6)
                + t.u32(UInt32(at + 18)) + t.u32(0) + Array("sub \(i)".utf8) + [0]
            layout.bytes += [UInt8](repeating: 0, count: 10_000)
        }
        let source = try EXIFDirectory(tiff: layout.bytes)
        #expect(source.ifds.filter { $0.kind == .subIFD }.count == 3)
        let result = EXIFAPP1Fitter.fit(source, limit: 2_000)
        let dir = try EXIFDirectory(tiff: try #require(result.tiff))
        #expect(EXIFTestSupport.contents(dir) == EXIFTestSupport.contents(source))
        #expect(dir.ifds.filter { $0.kind == .subIFD }.compactMap { $0.entry(EXIFTag.imageDescription).flatMap(dir.string) }
                == ["sub 0", "sub 1", "sub 2"])
        #expect(result.warnings.count == 1 && result.warnings[0].message.hasPrefix("repacked the EXIF"))
    }

    // MARK: Maker notes

    @Test("a maker note of unknown format keeps its offset; the rest is packed around it", arguments: [false, true])
    func unknownMakerNoteStays(bigEndian: Bool) throws {
        var t = Self.spread(bigEndian: bigEndian, makerNote: Array("SONY DSC \u{0}\u{0}\u{0}".utf8) + [UInt8](repeating: 0x5A, count: 3_000))
        t.ifdGap = 25_000
        let layout = t.build()
        let source = try EXIFDirectory(tiff: layout.bytes)
        let original = try #require(source.entry(.exif, EXIFTag.makerNote)?.valueRange)
        let result = EXIFAPP1Fitter.fit(source, limit: 50_000)
        let tiff = try #require(result.tiff)
        let dir = try EXIFDirectory(tiff: tiff)
        #expect(EXIFTestSupport.contents(dir) == EXIFTestSupport.contents(source))
        let note = try #require(dir.entry(.exif, EXIFTag.makerNote))
        #expect(note.valueRange == original)
        #expect([UInt8](tiff[original]) == [UInt8](layout.bytes[original]))
        // Packed around it: the directories went into the space before the maker note.
        #expect(dir.ifd(.exif)!.offset < original.lowerBound && dir.ifd(.gps)!.offset < original.lowerBound)
        #expect(tiff.count < layout.bytes.count - 30_000)
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].message.contains("the 3,012-byte maker note kept at offset \(EXIFText.bytes(original.lowerBound))"))
    }

    @Test("the allocator fills gaps before reserved ranges first fit, at even offsets")
    func allocator() {
        var allocator = TIFFSpaceAllocator(reserved: [300..<301, 100..<200])
        #expect(allocator.place(50) == 8)
        #expect(allocator.place(60) == 200)  // 42 bytes left before 100: too few
        #expect(allocator.place(40) == 58)
        #expect(allocator.place(1) == 98)
        #expect(allocator.place(3) == 260)  // 99 is odd, 100 is reserved
        #expect(allocator.place(37) == 302)  // 263..<300 is 37 bytes, but from the even 264 only 36
        #expect(allocator.end == 339)
        #expect(allocator.place(Int.max) == nil)
    }

    @Test("maker-note formats: Apple, Nikon type 3 (with its TIFF header) and Fujifilm move; others stay")
    func makerNoteFormats() {
        let nikonHeader = Array("Nikon\u{0}\u{2}\u{10}\u{0}\u{0}".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
        #expect(MakerNoteFormat.movableVendor(ArraySlice(Array("Apple iOS\u{0}\u{0}\u{1}MM".utf8))) == "Apple")
        #expect(MakerNoteFormat.movableVendor(ArraySlice(nikonHeader)) == "Nikon")
        #expect(MakerNoteFormat.movableVendor(ArraySlice(Array("FUJIFILM\u{C}\u{0}\u{0}\u{0}".utf8))) == "Fujifilm")
        #expect(MakerNoteFormat.movableVendor(ArraySlice(Array("Nikon\u{0}\u{2}\u{10}\u{0}\u{0}XXXX".utf8))) == nil)
        #expect(MakerNoteFormat.movableVendor(ArraySlice(Array("Nikon\u{0}\u{1}\u{0}".utf8))) == nil)  // type 2: absolute
        for other in ["SONY DSC \u{0}\u{0}\u{0}", "Canon", "Panasonic\u{0}\u{0}\u{0}", "Apple iOS", ""] {
            #expect(MakerNoteFormat.movableVendor(ArraySlice(Array(other.utf8))) == nil, "\(other)")
        }
    }

    // MARK: Step 3: drop the thumbnail

    @Test("3. one byte less than the packed size: the thumbnail goes, after the repack", arguments: [false, true])
    func dropThumbnail(bigEndian: Bool) throws {
        let layout = Self.spread(bigEndian: bigEndian).build()
        let source = try EXIFDirectory(tiff: layout.bytes)
        let packed = try packedSize(layout.bytes)
        let result = EXIFAPP1Fitter.fit(source, limit: packed - 1)
        let dir = try EXIFDirectory(tiff: try #require(result.tiff))
        #expect(dir.ifd(.ifd1) == nil && dir.ifds[0].nextIFDOffset == 0)
        #expect(contents(dir) == contents(source, ifd1: false))
        #expect(dir.tiff.count <= packed - 2_000)
        #expect(result.warnings.count == 2)
        #expect(result.warnings[0].message.hasPrefix("repacked the EXIF"))
        #expect(result.warnings[1].message == "dropped the 2,000-byte EXIF thumbnail to fit one APP1 (\(EXIFText.bytes(packed + 6)) → \(EXIFText.bytes(dir.tiff.count + 6)) bytes)")
    }

    @Test("3. a thumbnail too big to fit in any case is dropped")
    func dropHugeThumbnail() throws {
        let t = EXIFTestTIFF.typical(bigEndian: true, thumbnailSize: 70_000)
        let layout = t.build()
        let result = make(layout.bytes)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.ifd(.ifd1) == nil)
        #expect(dir.string(.exif, EXIFTag.dateTimeOriginal) == "2023:04:27 19:44:18")
        #expect(dir.tiff.count < layout.ifd1! + 1)
        // The blob was already packed, so the repack saved nothing and says nothing.
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].message.hasPrefix("dropped the 70,000-byte EXIF thumbnail"))
    }

    // MARK: Step 4: user fields to XMP

    static func withUserFields(bigEndian: Bool = false) -> EXIFTestTIFF {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
        t.ifd1 = nil
        t.thumbnail = nil
        let comment = "Zürich — " + String(repeating: "a long comment ", count: 200)  // 3,010 characters
        let units = EXIFTestTIFF.utf16(comment, bigEndian: bigEndian)
        t.exif!.append(Entry(EXIFTag.userComment, .undefined(Array("UNICODE\u{0}".utf8) + units)))
        t.ifd0 += [Entry(EXIFTag.imageDescription, .ascii(String(repeating: "description ", count: 150))),
                   Entry(EXIFTag.artist, .ascii("Ana Photographer")),
                   Entry(EXIFTag.copyright, .ascii("(c) 2024 Ana"))]
        return t
    }

    @Test("4. the largest user field moves to XMP first, and only as many as needed", arguments: [false, true])
    func userFieldsToXMP(bigEndian: Bool) throws {
        let source = try EXIFDirectory(tiff: Self.withUserFields(bigEndian: bigEndian).build().bytes)
        let packed = try packedSize(source.tiff)
        let comment = "Zürich — " + String(repeating: "a long comment ", count: 199) + "a long comment"

        // Room for all but the comment.
        let one = EXIFAPP1Fitter.fit(source, limit: packed - 1)
        let oneDir = try EXIFDirectory(tiff: try #require(one.tiff))
        #expect(one.movedToXMP == [XMPProperty(.exif, "UserComment", .languageAlternative(comment))])
        #expect(oneDir.entry(.exif, EXIFTag.userComment) == nil)
        #expect(contents(oneDir) == contents(source, without: [(.exif, EXIFTag.userComment)]))
        #expect(one.warnings.count == 1)  // the repack alone saved nothing: no warning for it
        #expect(one.warnings[0].message == "moved the 6,026-byte EXIF UserComment to XMP (exif:UserComment) to fit one APP1 "
            + "(\(EXIFText.bytes(packed + 6)) → \(EXIFText.bytes(oneDir.tiff.count + 6)) bytes)")

        // Less room: the description goes too; Artist and Copyright stay.
        let two = EXIFAPP1Fitter.fit(source, limit: oneDir.tiff.count - 1)
        let twoDir = try EXIFDirectory(tiff: try #require(two.tiff))
        #expect(two.movedToXMP.map(\.qualifiedName) == ["exif:UserComment", "dc:description"])
        #expect(two.movedToXMP[1].value == .languageAlternative(String(repeating: "description ", count: 150).dropLast() + ""))
        #expect(twoDir.string(.ifd0, EXIFTag.artist) == "Ana Photographer" && twoDir.string(.ifd0, EXIFTag.copyright) == "(c) 2024 Ana")
        #expect(two.warnings.count == 2 && two.warnings[1].message.hasPrefix("moved the 1,801-byte EXIF ImageDescription to XMP (dc:description)"))

        // Room for hardly anything: all four move, then the maker note goes.
        let all = EXIFAPP1Fitter.fit(source, limit: 400)
        let allDir = try EXIFDirectory(tiff: try #require(all.tiff))
        #expect(all.movedToXMP == [
            XMPProperty(.exif, "UserComment", .languageAlternative(comment)),
            XMPProperty(.dc, "description", .languageAlternative(String(repeating: "description ", count: 150).dropLast() + "")),
            XMPProperty(.dc, "creator", .orderedArray(["Ana Photographer"])),
            XMPProperty(.dc, "rights", .languageAlternative("(c) 2024 Ana")),
        ])
        #expect(allDir.entry(.exif, EXIFTag.makerNote) == nil)
        #expect(allDir.string(.gps, EXIFTag.gpsLatitudeRef) == "N")
        #expect(all.warnings.last?.message.hasPrefix("dropped the 35-byte maker note to fit one APP1") == true)
    }

    @Test("4. a blank comment is dropped, not moved; an undecodable one stays")
    func blankAndUndecodable() throws {
        var t = EXIFTestTIFF.typical()
        t.ifd1 = nil
        t.thumbnail = nil
        t.exif!.append(Entry(EXIFTag.userComment, .undefined(Array("ASCII\u{0}\u{0}\u{0}".utf8) + [UInt8](repeating: 0x20, count: 2_000))))
        let blank = EXIFAPP1Fitter.fit(try EXIFDirectory(tiff: t.build().bytes), limit: 600)
        #expect(blank.movedToXMP.isEmpty)
        #expect(blank.warnings.last?.message.hasPrefix("dropped the empty 2,008-byte EXIF UserComment") == true)
        #expect(blank.tiff != nil)

        t.exif![t.exif!.count - 1] = Entry(EXIFTag.userComment, .undefined(Array("JIS\u{0}\u{0}\u{0}\u{0}\u{0}".utf8) + [0x1B, 0x24, 0x42] + [UInt8](repeating: 0xB0, count: 2_000)))
        let jis = EXIFAPP1Fitter.fit(try EXIFDirectory(tiff: t.build().bytes), limit: 600)
        #expect(jis.tiff == nil)
        #expect(jis.movedToXMP.isEmpty)
        #expect(jis.warnings.count == 1)
        #expect(jis.warnings[0].message.contains("dropped it (still"))
        #expect(jis.warnings[0].message.hasSuffix("after repacking it, dropping the maker note)"))
    }

    // MARK: Step 5 and giving up

    @Test("5. a maker note too big for one APP1 is dropped; the rest is kept")
    func dropMakerNote() throws {
        var t = EXIFTestTIFF.typical()
        t.exif![1] = Entry(EXIFTag.makerNote, .undefined([UInt8](repeating: 0x55, count: 70_000)))
        let result = make(t.build().bytes)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.entry(.exif, EXIFTag.makerNote) == nil)
        #expect(dir.ifd(.ifd1) == nil)  // step 3 came first
        #expect(dir.string(.exif, EXIFTag.dateTimeOriginal) == "2023:04:27 19:44:18")
        #expect(result.warnings.count == 2)
        #expect(result.warnings[0].message.hasPrefix("dropped the 64-byte EXIF thumbnail"))
        #expect(result.warnings[1].message.hasPrefix("dropped the 70,000-byte maker note to fit one APP1"))
    }

    @Test("6. what cannot be dropped or moved: no EXIF, and the warning says what was tried")
    func giveUp() throws {
        var t = EXIFTestTIFF.typical()
        t.exif!.append(Entry(0xA430, .ascii(String(repeating: "owner ", count: 12_000))))  // CameraOwnerName
        let tiff = t.build().bytes
        let result = make(tiff)
        #expect(result.app1Payload == nil)
        #expect(result.movedToXMP.isEmpty)
        #expect(result.warnings.count == 1)
        #expect(result.warnings[0].message.hasPrefix("EXIF is \(EXIFText.bytes(tiff.count + 6)) bytes, over the 65,533 a JPEG APP1 holds; dropped it (still "))
        #expect(result.warnings[0].message.hasSuffix(" bytes after repacking it, dropping the thumbnail, dropping the maker note)"))
    }

    @Test("fitter steps with a small limit", arguments: [false, true])
    func smallLimit(bigEndian: Bool) throws {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 40)
        t.thumbnailGap = 300
        let layout = t.build()
        let item = EXIFTestSupport.heifItem(tiff: layout.bytes)
        let packed = try packedSize(layout.bytes)
        // Enough for everything once the gap is gone: repacked.
        let repacked = EXIFForJPEG.make(fromHEIFExifItem: item, width: 1, height: 1, tiffLimit: packed)
        #expect(repacked.warnings.first?.message.hasPrefix("repacked the EXIF") == true)
        #expect(EXIFTestSupport.directory(repacked).flatMap(thumbnail) == t.thumbnail)
        // Less: the thumbnail is dropped.
        let dropped = EXIFForJPEG.make(fromHEIFExifItem: item, width: 1, height: 1, tiffLimit: packed - 1)
        #expect(dropped.warnings.last?.message.hasPrefix("dropped the 40-byte EXIF thumbnail") == true)
        #expect(EXIFTestSupport.directory(dropped)?.ifd(.ifd1) == nil)
        // Not even IFD0: nothing.
        let none = EXIFForJPEG.make(fromHEIFExifItem: item, width: 1, height: 1, tiffLimit: 20)
        #expect(none.app1Payload == nil)
        #expect(none.warnings.first?.message.contains("over the 26 a JPEG APP1 holds; dropped it") == true)
    }

    // MARK: When the repack is impossible

    @Test("a value that cannot be located: no repack (the warning says why); IFD1 dropped in place instead")
    func unplaceable() throws {
        var t = EXIFTestTIFF.typical(thumbnailSize: 40)
        t.ifd0.append(Entry(0x013C, .raw(type: TIFFFieldType.ascii, count: 400, bytes: t.u32(0x00FF_0000))))  // HostComputer, dangling
        t.ifd1Gap = 70_000
        let layout = t.build()
        let result = make(layout.bytes)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.ifd(.ifd1) == nil)
        #expect(dir.tiff.count <= layout.ifd1! - 70_000)
        #expect(result.warnings.map(\.message) == [
            "EXIF could not be repacked: IFD0 tag 0x013C (type 2, count 400) has a value that cannot be located; "
                + "only trimming it and dropping its thumbnail were tried",
            "dropped the 40-byte EXIF thumbnail and trimmed unreferenced bytes (\(EXIFText.bytes(layout.bytes.count + 6)) → "
                + "\(EXIFText.bytes(dir.tiff.count + 6)) bytes) to fit one APP1",
        ])
    }

    @Test("TIFFLayout: a SHORT offset array that cannot hold a large offset is refused; a single SHORT becomes LONG")
    func shortOffsets() throws {
        var t = EXIFTestTIFF()
        t.ifd0 = [Entry(EXIFTag.make, .ascii("X")), Entry(EXIFTag.makerNote, .undefined([UInt8](repeating: 1, count: 70_000))),
                  Entry(EXIFTag.stripOffsets, .short([0])), Entry(EXIFTag.stripByteCounts, .short([2]))]
        var layout = t.build()
        TIFFPatching.put16(8, at: layout.entryOffsets[layout.ifd0]![EXIFTag.stripOffsets]! + 8, in: &layout.bytes, bigEndian: false)
        // The unknown maker note keeps its place, so the strip lands after it, past 65,535.
        guard case let .packed(bytes) = try TIFFLayout(EXIFDirectory(tiff: layout.bytes)).packed(cap: .max) else {
            Issue.record("not packed")
            return
        }
        let dir = try EXIFDirectory(tiff: bytes)
        #expect(dir.entry(.ifd0, EXIFTag.stripOffsets)?.type == TIFFFieldType.long)
        let strip = try #require(dir.unsignedInteger(.ifd0, EXIFTag.stripOffsets))
        #expect(strip > 65_535 && Array(bytes[Int(strip)..<Int(strip) + 2]) == Array(layout.bytes[8..<10]))

        // Three SHORT offsets (an array) to blocks too big for the space before the maker note.
        t.ifd0[2] = Entry(EXIFTag.stripOffsets, .short([8, 8, 8]))
        t.ifd0[3] = Entry(EXIFTag.stripByteCounts, .short([40, 40, 41]))
        let array = try EXIFDirectory(tiff: t.build().bytes)
        let after = try #require(array.entry(.ifd0, EXIFTag.makerNote)?.valueRange?.upperBound)
        #expect(throws: EXIFError.offsetTooLargeForShort(ifd: .ifd0, tag: EXIFTag.stripOffsets, offset: after + after % 2)) {
            _ = try TIFFLayout(array).packed(cap: .max)
        }
    }
}
