import H2JTestSupport
import Testing
@testable import H2JMetadata

/// Hostile and broken EXIF: nothing may trap or loop; sub-IFD damage degrades gracefully.
@Suite("EXIF hostile input")
struct EXIFHostileInputTests {
    typealias Entry = EXIFTestTIFF.Entry

    func make(_ tiff: [UInt8], tiffLimit: Int = EXIFAPP1Fitter.maxTIFFBytes) -> JPEGExif {
        EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: 640, height: 480, tiffLimit: tiffLimit)
    }

    func put32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8], bigEndian: Bool = false) {
        #expect(TIFFPatching.put32(value, at: offset, in: &bytes, bigEndian: bigEndian))
    }

    /// Offset of the 12-byte entry with `tag` in the IFD at `ifd`.
    func entry(_ layout: EXIFTestTIFF.Layout, _ ifd: Int?, _ tag: UInt16) -> Int {
        layout.entryOffsets[ifd!]![tag]!
    }

    @Test("empty and truncated items")
    func truncatedItems() {
        let item = EXIFTestSupport.heifItem(tiff: EXIFTestTIFF.typical().build().bytes)
        #expect(EXIFForJPEG.make(fromHEIFExifItem: [], width: 1, height: 1).app1Payload == nil)
        for n in 0..<item.count {
            let result = EXIFForJPEG.make(fromHEIFExifItem: Array(item.prefix(n)), width: 1, height: 1)
            if let payload = result.app1Payload { #expect(payload.count <= n + 2) }
            #expect(result.app1Payload != nil || !result.warnings.isEmpty)
        }
    }

    @Test("IFD0 offset past the end: no payload, warning names the cause")
    func ifd0PastEnd() {
        var tiff = EXIFTestTIFF.typical().build().bytes
        put32(0xFFFF_FFF0, at: 4, in: &tiff)
        let result = make(tiff)
        #expect(result.app1Payload == nil)
        #expect(result.warnings.map(\.message) == ["EXIF is unreadable: IFD0 offset 4,294,967,280 is past the end of the \(EXIFText.bytes(tiff.count))-byte TIFF data; dropped it"])
    }

    @Test("IFD0 offset inside the header")
    func ifd0InHeader() {
        var tiff = EXIFTestTIFF.typical().build().bytes
        put32(2, at: 4, in: &tiff)
        let result = make(tiff)
        #expect(result.app1Payload == nil)
        #expect(result.warnings.first?.message.contains("IFD0 offset 2 points inside the 8-byte TIFF header") == true)
    }

    @Test("IFD0 entries truncated")
    func ifd0Truncated() {
        let layout = EXIFTestTIFF.typical().build()
        let tiff = Array(layout.bytes.prefix(layout.ifd0 + 2 + 12 * 3))
        let result = make(tiff)
        #expect(result.app1Payload == nil)
        #expect(result.warnings.first?.message.contains("IFD0 at offset 8 declares 9 entries, which run past the end") == true)
    }

    @Test("IFD0's next pointer loops back to IFD0")
    func nextLoop() throws {
        var t = EXIFTestTIFF.typical()
        t.ifd1 = nil
        t.thumbnail = nil
        let layout = t.build()
        var tiff = layout.bytes
        let ifd0 = try EXIFDirectory(tiff: tiff).ifds[0]
        put32(UInt32(layout.ifd0), at: ifd0.nextPointerOffset!, in: &tiff)
        let result = make(tiff)
        let dir = try #require(EXIFTestSupport.directory(result))
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
        #expect(result.warnings.map(\.message) == ["EXIF IFD1 at offset 8 was already read (IFD loop); left it as it is"])
    }

    @Test("sub-IFD pointers into IFD0, into themselves, and in a cycle")
    func subIFDLoops() throws {
        let layout = EXIFTestTIFF.typical().build()
        let exifPointer = entry(layout, layout.ifd0, EXIFTag.exifIFDPointer)
        let interopPointer = entry(layout, layout.exif, EXIFTag.interopIFDPointer)
        let gpsPointer = entry(layout, layout.ifd0, EXIFTag.gpsIFDPointer)
        let cases: [(Int, UInt32, String)] = [
            (exifPointer, UInt32(layout.ifd0), "ExifIFD at offset 8 was already read (IFD loop)"),
            (exifPointer, UInt32(layout.ifd0 + 6), "ExifIFD at offset 14 overlaps IFD0"),
            (interopPointer, UInt32(layout.exif!), "InteropIFD at offset \(layout.exif!) was already read (IFD loop)"),
            (gpsPointer, UInt32(layout.exif! + 12), "GPS IFD at offset \(layout.exif! + 12) overlaps ExifIFD"),
        ]
        for (at, value, message) in cases {
            var tiff = layout.bytes
            put32(value, at: at + 8, in: &tiff)
            let result = make(tiff)
            let dir = try #require(EXIFTestSupport.directory(result))
            #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
            #expect(result.warnings.map(\.message).contains("EXIF \(message); left it as it is"))
        }
    }

    @Test("GPS IFD unreadable: everything else still patched", arguments: [false, true])
    func gpsUnreadable(bigEndian: Bool) throws {
        let layout = EXIFTestTIFF.typical(bigEndian: bigEndian).build()
        for bad in [UInt32(0xFFFF_FF00), UInt32(layout.bytes.count - 3), 4] {
            var tiff = layout.bytes
            put32(bad, at: entry(layout, layout.ifd0, EXIFTag.gpsIFDPointer) + 8, in: &tiff, bigEndian: bigEndian)
            let result = make(tiff)
            let dir = try #require(EXIFTestSupport.directory(result))
            #expect(dir.ifd(.gps) == nil)
            #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
            #expect(dir.unsignedInteger(.ifd1, EXIFTag.orientation) == 1)
            #expect(dir.unsignedInteger(.exif, EXIFTag.pixelXDimension) == 640)
            #expect(result.warnings.count == 1)
            #expect(result.warnings[0].message.hasPrefix("EXIF GPS IFD"))
        }
    }

    @Test("a truncated sub-IFD does not stop trimming")
    func truncatedSubIFD() throws {
        var t = EXIFTestTIFF.typical()
        t.trailingPadding = 70_000
        let layout = t.build()
        var tiff = layout.bytes
        // The GPS IFD claims 65,535 entries, which run past the end: unreadable, so it
        // references nothing, and the padding can still be trimmed.
        TIFFPatching.put16(0xFFFF, at: layout.gps!, in: &tiff, bigEndian: false)
        let dir = try EXIFDirectory(tiff: tiff)
        #expect(dir.unreadable.map(\.kind) == [.gps])
        #expect(EXIFReferencedBytes(dir).extentOfAll == layout.end)
        let result = make(tiff)
        let out = try #require(EXIFTestSupport.directory(result))
        #expect(out.tiff.count == layout.end)
        #expect(out.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
        #expect(result.warnings.count == 2)
        #expect(result.warnings[0].message.hasPrefix("EXIF GPS IFD at offset \(layout.gps!) declares 65535 entries"))
        #expect(result.warnings[1].message.hasPrefix("trimmed 70,000 unreferenced bytes"))
    }

    @Test("huge counts, count × size overflow, unknown types")
    func hugeCounts() throws {
        for bigEndian in [false, true] {
            var t = EXIFTestTIFF.typical(bigEndian: bigEndian)
            let b = EXIFTestTIFF(bigEndian: bigEndian)
            t.ifd0 += [
                Entry(0x0200, .raw(type: TIFFFieldType.double, count: 0xFFFF_FFFF, bytes: b.u32(16))),
                Entry(0x0300, .raw(type: TIFFFieldType.ascii, count: 0xFFFF_FFFF, bytes: b.u32(0xFFFF_FFFF))),
                Entry(0x0400, .raw(type: 0xFFFF, count: 0xFFFF_FFFF, bytes: b.u32(8))),
                Entry(EXIFTag.subIFDs, .raw(type: TIFFFieldType.long, count: 0xFFFF_FFFF, bytes: b.u32(8))),
            ]
            t.gps! += [Entry(EXIFTag.interopIFDPointer, .ascii("not a pointer"))]
            let tiff = t.build().bytes
            let dir = try EXIFDirectory(tiff: tiff)
            #expect(dir.string(.ifd0, 0x0300) == nil)
            #expect(dir.rawValue(.ifd0, 0x0200) == nil)
            #expect(dir.unsignedIntegers(.ifd0, 0x0400) == nil)
            #expect(dir.unreadable.map(\.kind) == [.subIFD, .interop])
            let result = make(tiff, tiffLimit: 200)
            #expect(result.app1Payload == nil || result.app1Payload!.count <= 206)
        }
    }

    @Test("thumbnail offset/length pointing anywhere")
    func hostileThumbnail() {
        let layout = EXIFTestTIFF.typical().build()
        let offsetEntry = entry(layout, layout.ifd1, EXIFTag.jpegInterchangeFormat)
        let lengthEntry = entry(layout, layout.ifd1, EXIFTag.jpegInterchangeFormatLength)
        for (offset, length) in [(UInt32.max, UInt32.max), (0, UInt32.max), (8, 0), (UInt32(layout.bytes.count), 1), (3, 5)] {
            var tiff = layout.bytes
            put32(offset, at: offsetEntry + 8, in: &tiff)
            put32(length, at: lengthEntry + 8, in: &tiff)
            for limit in [100, 300, layout.ifd1! + 10, EXIFAPP1Fitter.maxTIFFBytes] {
                let result = make(tiff, tiffLimit: limit)
                if let payload = result.app1Payload {
                    #expect(payload.count <= limit + 6)
                    #expect((try? EXIFDirectory(app1Payload: payload)) != nil)
                }
            }
        }
    }

    @Test("IFD budget: a 40-long IFD chain stops at the limit")
    func ifdChainBudget() throws {
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        let count = 40
        for i in 0..<count {
            let next = i == count - 1 ? 0 : UInt32(8 + 18 * (i + 1))
            tiff += [1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]
            tiff += [UInt8(next & 0xFF), UInt8(next >> 8), 0, 0]
        }
        let dir = try EXIFDirectory(tiff: tiff)
        #expect(dir.ifds.count == TIFFReader.maxIFDs)
        #expect(dir.unreadable.count == 1)
        #expect(EXIFReferencedBytes(dir).extentOfAll == 8 + 18 * TIFFReader.maxIFDs)
        // IFD1 has descendants, so it cannot move; dropping it leaves IFD0 alone.
        let result = make(tiff, tiffLimit: 100)
        let expectedCount: Int = 6 + 8 + 18  // "Exif\0\0", the TIFF header, IFD0 with one entry
        #expect(result.app1Payload?.count == expectedCount)
        #expect(result.warnings.last?.message.hasPrefix("dropped IFD1") == true)
    }

    /// A zero body is an empty IFD0 (no entries, no next IFD) and unreferenced zeros: it is
    /// kept, trimmed to the 14-byte TIFF when the limit asks. A 0xFF or 0x01 body declares
    /// 65,535 or 257 IFD0 entries that run past the end: the EXIF is dropped with a warning
    /// that says so. Whatever comes out reads back and fits the limit.
    @Test("all-0xFF and all-zero bodies behind a valid header")
    func garbageBodies() throws {
        let signature = Array("Exif\0\0".utf8)
        for fill: UInt8 in [0x00, 0xFF, 0x01] {
            for header: [UInt8] in [[0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]] {
                let tiff = header + [UInt8](repeating: fill, count: 300)
                for limit in [EXIFAPP1Fitter.maxTIFFBytes, 50] {
                    let context = "fill 0x\(String(fill, radix: 16)), \(header[0] == 0x49 ? "II" : "MM"), limit \(limit)"
                    let result = make(tiff, tiffLimit: limit)
                    guard let payload = result.app1Payload else {
                        let count = fill == 0xFF ? 65_535 : 257
                        #expect(fill != 0, "\(context): an empty IFD0 is readable, yet dropped: \(result.warnings.map(\.message))")
                        #expect(result.warnings.map(\.code) == [.exifDropped], "\(context)")
                        #expect(result.warnings.first?.message.contains("IFD0 at offset 8 declares \(count) entries, which run past the end") == true,
                                "\(context): \(result.warnings.map(\.message))")
                        continue
                    }
                    #expect(fill == 0, "\(context): IFD0's entries run past the end, yet \(payload.count) bytes came out")
                    #expect(payload.starts(with: signature) && payload.count <= limit + signature.count, "\(context): \(payload.count) bytes")
                    let dir = try #require(try? EXIFDirectory(app1Payload: payload), "\(context): the payload does not read back")
                    #expect(dir.ifds.count == 1 && dir.ifds[0].entries.isEmpty && dir.unreadable.isEmpty, "\(context)")
                    let out = Array(payload.dropFirst(signature.count))
                    if limit < tiff.count {
                        // Only the header and the empty IFD0 (count, next pointer) are referenced.
                        #expect(out == header + [0, 0, 0, 0, 0, 0], "\(context): \(out.count) bytes")
                        #expect(result.warnings.map(\.message).contains { $0.hasPrefix("trimmed 294 unreferenced bytes") }, "\(context)")
                    } else {
                        #expect(out == tiff && result.warnings.isEmpty, "\(context): what fits is kept as it is")
                    }
                }
            }
        }
    }
}

/// Hostile structures meet the repack, the later ladder steps and the append-IFD edit:
/// each is either handled exactly or refused with a warning that names the cause, and
/// whatever comes out reads back and fits.
@Suite("EXIF hostile input: repack and append")
struct EXIFHostileRepackTests {
    typealias Entry = EXIFTestTIFF.Entry

    static let id = "0123456789ABCDEF0123456789ABCDEF"

    /// A blob that must be repacked to fit (IFD1 far behind a gap), broken by `damage`.
    static func broken(bigEndian: Bool = false, _ damage: (inout EXIFTestTIFF, inout EXIFTestTIFF.Layout) -> Void) -> [UInt8] {
        var t = EXIFTestTIFF.typical(bigEndian: bigEndian, thumbnailSize: 100)
        t.ifd1Gap = 70_000
        var layout = t.build()
        damage(&t, &layout)
        return layout.bytes
    }

    static func put32(_ value: UInt32, _ layout: inout EXIFTestTIFF.Layout, _ ifd: Int?, _ tag: UInt16, field: Int = 8) {
        TIFFPatching.put32(value, at: layout.entryOffsets[ifd!]![tag]! + field, in: &layout.bytes, bigEndian: false)
    }

    /// Cases and the reason the repack must give.
    static let cases: [(String, [UInt8], String)] = [
        ("ExifIFD pointer loops to IFD0", broken { _, l in put32(UInt32(l.ifd0), &l, l.ifd0, EXIFTag.exifIFDPointer) },
         "ExifIFD at offset 8 was already read (IFD loop)"),
        ("GPS offset past the end", broken { _, l in put32(0xFFFF_FF00, &l, l.ifd0, EXIFTag.gpsIFDPointer) },
         "GPS IFD offset 4,294,967,040 is past the end"),
        ("GPS IFD overlapping ExifIFD", broken { _, l in put32(UInt32(l.exif! + 12), &l, l.ifd0, EXIFTag.gpsIFDPointer) },
         "overlaps ExifIFD"),
        ("Interop pointer of type ASCII", broken { _, l in
            TIFFPatching.put16(TIFFFieldType.ascii, at: l.entryOffsets[l.exif!]![EXIFTag.interopIFDPointer]! + 2, in: &l.bytes, bigEndian: false)
        }, "ExifIFD tag 0xA005 has type 2 count 1, which cannot hold an IFD offset"),
        ("GPS pointer twice in IFD0", broken { _, l in
            // Turn the ExifIFD pointer entry into a second GPS pointer (tags then out of order, as hostile files are).
            TIFFPatching.put16(EXIFTag.gpsIFDPointer, at: l.entryOffsets[l.ifd0]![EXIFTag.exifIFDPointer]!, in: &l.bytes, bigEndian: false)
        }, "IFD0 has tag 0x8825 more than once"),
        ("a count of 4,294,967,295 LONGs", broken { _, l in put32(0xFFFF_FFFF, &l, l.exif, EXIFTag.dateTimeOriginal, field: 4) },
         "ExifIFD tag 0x9003 (type 2, count 4294967295) has a value that cannot be located"),
        ("an unknown field type", broken { _, l in
            TIFFPatching.put16(0x00EE, at: l.entryOffsets[l.ifd0]![EXIFTag.model]! + 2, in: &l.bytes, bigEndian: false)
        }, "IFD0 tag 0x0110 (type 238, count 14) has a value that cannot be located"),
        ("thumbnail offset past the end", broken { _, l in put32(0x7FFF_FFFF, &l, l.ifd1, EXIFTag.jpegInterchangeFormat) },
         "IFD1 tag 0x0201 points at data whose offsets or lengths cannot be read"),
        ("an unknown maker note inside the header", broken { _, l in put32(2, &l, l.exif, EXIFTag.makerNote) },
         "ExifIFD tag 0x927C (type 7, count 35) has a value that cannot be located"),
    ]

    @Test("each hostile structure is refused by the repack with its cause; the output still reads and fits",
          arguments: cases.indices)
    func refused(index: Int) throws {
        let (name, tiff, cause) = Self.cases[index]
        for limit in [EXIFForJPEG.maxTIFFBytes, 400, 120] {
            let result = EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: tiff), width: 640, height: 480,
                                          imageUniqueID: Self.id, tiffLimit: limit)
            let note = result.warnings.first { $0.message.hasPrefix("EXIF could not be repacked: ") }
            #expect(note?.message.contains(cause) == true, "\(name), limit \(limit): \(result.warnings)")
            #expect(result.movedToXMP.isEmpty, "\(name)")
            if let payload = result.app1Payload {
                #expect(payload.count <= limit + 6, "\(name)")
                let dir = try EXIFDirectory(app1Payload: payload)
                #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1, "\(name)")
            } else {
                #expect(result.warnings.last?.message.contains("dropped it") == true, "\(name)")
            }
        }
    }

    @Test("the append-IFD edit on each hostile structure: refused or readable, never a trap")
    func append() throws {
        let value = try #require(TIFFValue.ascii(Self.id))
        for (name, tiff, _) in Self.cases {
            let dir = try EXIFDirectory(tiff: tiff)
            for kind in EXIFIFDKind.allCases {
                guard let edited = try? TIFFIFDAppender.set([0xC001: value], in: kind, of: dir) else { continue }
                #expect(edited.string(kind, 0xC001) == Self.id, "\(name) \(kind)")
                #expect(edited.ifds.count >= dir.ifds.count, "\(name) \(kind)")
            }
        }
    }

    @Test("SubIFDs with more offsets than readers follow are not repacked")
    func tooManySubIFDs() throws {
        var t = EXIFTestTIFF.typical()
        t.ifd0.append(Entry(EXIFTag.subIFDs, .long([UInt32](repeating: 0, count: 9))))
        t.ifd1Gap = 70_000
        var layout = t.build()
        // Nine real (empty) IFDs; readers follow the first eight.
        let array = try #require(EXIFDirectory(tiff: layout.bytes).entry(.ifd0, EXIFTag.subIFDs)?.valueOffset)
        for i in 0..<9 {
            TIFFPatching.put32(UInt32(layout.bytes.count), at: array + 4 * i, in: &layout.bytes, bigEndian: false)
            layout.bytes += [0, 0, 0, 0, 0, 0]
        }
        let dir = try EXIFDirectory(tiff: layout.bytes)
        #expect(dir.ifds.filter { $0.kind == .subIFD }.count == 8 && dir.unreadable.isEmpty)
        let result = EXIFForJPEG.make(fromHEIFExifItem: EXIFTestSupport.heifItem(tiff: layout.bytes), width: 1, height: 1)
        #expect(result.warnings.first?.message == "EXIF could not be repacked: IFD0 tag 0x014A holds 9 IFD offsets, more than readers follow; "
            + "only trimming it and dropping its thumbnail were tried")
        // The SubIFDs sit after the gap, so neither trimming nor dropping IFD1 helps.
        #expect(result.app1Payload == nil && result.warnings.last?.message.contains("dropped it") == true)
    }
}
