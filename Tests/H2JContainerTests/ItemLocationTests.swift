import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

@Suite("iloc item locations and item data")
struct ItemLocationTests {
    typealias B = BoxBuilder

    static let mdat: [UInt8] = Array("hello, tiles!xyz".utf8)

    /// ftyp + meta (items 1 and 7; `iloc` made by `locations(mdatPayloadStart)`, then `extra`) + mdat.
    /// The `iloc` size does not depend on the offsets, so a first pass finds where mdat lands.
    static func file(version: UInt8 = 1, offsetSize: Int = 4, lengthSize: Int = 4, baseOffsetSize: Int = 0, indexSize: Int = 0,
                     extra: [[UInt8]] = [], _ locations: (Int) -> [B.Location]) -> [UInt8] {
        func build(_ mdatStart: Int) -> [UInt8] {
            let iloc = B.iloc(version: version, offsetSize: offsetSize, lengthSize: lengthSize, baseOffsetSize: baseOffsetSize,
                              indexSize: indexSize, locations(mdatStart))
            return B.ftyp + B.meta(primary: 1, items: [(1, "hvc1"), (7, "Exif")], extraBoxes: [iloc] + extra)
        }
        let head = build(0)
        return build(head.count + 8) + B.box("mdat", mdat)
    }

    static func data(_ file: [UInt8], _ id: UInt32, maxBytes: Int = 1 << 20) throws(HEIFError) -> [UInt8] {
        try HEIFStructure.read(from: MemoryByteSource(file)).itemData(id, from: MemoryByteSource(file), maxBytes: maxBytes)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("Versions 0, 1 and 2 with field sizes 0, 4 and 8, base offsets and several extents",
          arguments: [UInt8(0), 1, 2], [(4, 4, 0), (8, 8, 4), (4, 8, 8), (8, 4, 0)])
    func versionsAndSizes(version: UInt8, sizes: (offset: Int, length: Int, base: Int)) throws {
        let bytes = Self.file(version: version, offsetSize: sizes.offset, lengthSize: sizes.length, baseOffsetSize: sizes.base) { start in
            // With a base offset, extents are relative to it; without, absolute.
            let base = sizes.base > 0 ? UInt64(start) : 0
            let origin = UInt64(start) - base
            return [B.Location(id: 1, baseOffset: base, extents: [(0, origin + 0, 5), (0, origin + 13, 3)])]
        }
        #expect(Self.text(try Self.data(bytes, 1)) == "helloxyz")
        let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
        #expect(structure.locations[1]?.construction == .file)
        #expect(structure.locations[1]?.extents.count == 2)
        #expect(throws: Never.self) { try structure.checkItemsInFile(size: bytes.count) }
    }

    @Test("offset_size 0 leaves the base offset alone; length 0 runs to the end of the file")
    func zeroSizedFields() throws {
        let bytes = Self.file(offsetSize: 0, lengthSize: 4, baseOffsetSize: 8) { start in
            [B.Location(id: 1, baseOffset: UInt64(start + 7), extents: [(0, 0, 5)])]
        }
        #expect(Self.text(try Self.data(bytes, 1)) == "tiles")
        let toEnd = Self.file(offsetSize: 4, lengthSize: 0) { start in [B.Location(id: 1, extents: [(0, UInt64(start + 13), 0)])] }
        #expect(Self.text(try Self.data(toEnd, 1)) == "xyz")
        #expect(try HEIFStructure.read(from: MemoryByteSource(toEnd)).locations[1]?.extents == [.init(offset: toEnd.count - 3, length: 0)])
    }

    @Test("extent_index (versions 1 and 2, index_size > 0) is skipped", arguments: [UInt8(1), 2], [4, 8])
    func extentIndex(version: UInt8, indexSize: Int) throws {
        let bytes = Self.file(version: version, indexSize: indexSize) { start in
            [B.Location(id: 1, extents: [(99, UInt64(start), 5)])]
        }
        #expect(Self.text(try Self.data(bytes, 1)) == "hello")
    }

    @Test("Construction method 1 reads from idat, with base offset and a to-the-end extent")
    func idat() throws {
        let bytes = Self.file(extra: [B.idat(Array("..abcdefgh".utf8))]) { _ in
            [B.Location(id: 7, construction: 1, extents: [(0, 2, 3), (0, 7, 0)])]
        }
        #expect(Self.text(try Self.data(bytes, 7)) == "abcfgh")
        let based = Self.file(baseOffsetSize: 4, extra: [B.idat(Array("..abcdefgh".utf8))]) { _ in
            [B.Location(id: 7, construction: 1, baseOffset: 2, extents: [(0, 0, 3), (0, 5, 0)])]
        }
        #expect(Self.text(try Self.data(based, 7)) == "abcfgh")
        let structure = try HEIFStructure.read(from: MemoryByteSource(based))
        #expect(structure.idat == Array("..abcdefgh".utf8))
        #expect(throws: Never.self) { try structure.checkItemsInFile(size: 0) }
    }

    @Test("An extent past the end of the file is named with its offset, length and the file size")
    func outsideFile() throws {
        let bytes = Self.file { _ in [B.Location(id: 7, extents: [(0, 4000, 10)])] }
        let error = HEIFError.itemDataOutOfRange(item: 7, offset: 4000, length: 10, size: bytes.count, inIdat: false)
        #expect(throws: error) { try Self.data(bytes, 7) }
        #expect(error.description == "item 7's data (offset 4000, 10 bytes) lies outside the \(bytes.count)-byte file")
        #expect(throws: error) { try HEIFStructure.read(from: MemoryByteSource(bytes)).checkItemsInFile(size: bytes.count) }

        let straddling = Self.file { start in [B.Location(id: 7, extents: [(0, UInt64(start + 10), 7)])] }
        #expect(throws: HEIFError.itemDataOutOfRange(item: 7, offset: straddling.count - 6, length: 7, size: straddling.count, inIdat: false)) {
            try Self.data(straddling, 7)
        }
        let toEnd = Self.file(lengthSize: 0) { start in [B.Location(id: 7, extents: [(0, UInt64(start + 100), 0)])] }
        #expect(throws: HEIFError.itemDataOutOfRange(item: 7, offset: toEnd.count + 84, length: 0, size: toEnd.count, inIdat: false)) {
            try Self.data(toEnd, 7)
        }
        #expect(HEIFError.itemDataOutOfRange(item: 7, offset: 9, length: 0, size: 4, inIdat: true).description
            == "item 7's data (offset 9, to the end) lies outside the 4-byte 'idat' box")
        let idat = Self.file(extra: [B.idat([1, 2, 3, 4])]) { _ in [B.Location(id: 7, construction: 1, extents: [(0, 2, 3)])] }
        #expect(throws: HEIFError.itemDataOutOfRange(item: 7, offset: 2, length: 3, size: 4, inIdat: true)) { try Self.data(idat, 7) }
    }

    @Test("A file that shrank after parsing makes the read fail, not trap")
    func shrunkFile() throws {
        let bytes = Self.file { start in [B.Location(id: 1, extents: [(0, UInt64(start), 16)])] }
        let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
        #expect(throws: HEIFError.itemDataOutOfRange(item: 1, offset: bytes.count - 16, length: 16, size: bytes.count - 1, inIdat: false)) {
            try structure.itemData(1, from: MemoryByteSource(Array(bytes.dropLast())), maxBytes: 100)
        }
    }

    @Test("Missing locations, other files and other items are refused by name")
    func unsupported() throws {
        let bytes = Self.file { start in
            [B.Location(id: 1, construction: 2, extents: [(0, 0, 4)]), B.Location(id: 7, dataReference: 1, extents: [(0, UInt64(start), 4)])]
        }
        #expect(throws: HEIFError.missingLocation(item: 9)) { try Self.data(bytes, 9) }
        #expect(HEIFError.missingLocation(item: 9).description == "item 9 has no location in 'iloc'")
        #expect(throws: HEIFError.unsupportedItemData(item: 1, reason: "it is built from other items' data ('iloc' construction method 2)")) {
            try Self.data(bytes, 1)
        }
        #expect(throws: HEIFError.unsupportedItemData(item: 7, reason: "it lies in another file ('iloc' data_reference_index 1)")) {
            try Self.data(bytes, 7)
        }
        let noIloc = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")])
        #expect(throws: HEIFError.missingLocation(item: 1)) { try Self.data(noIloc, 1) }
    }

    @Test("maxBytes caps the item before anything is read")
    func sizeLimit() throws {
        let bytes = Self.file { start in [B.Location(id: 1, extents: [(0, UInt64(start), 5), (0, UInt64(start), 3)])] }
        #expect(throws: HEIFError.limitExceeded("item 1's data is 8 bytes, over the 7-byte limit")) { try Self.data(bytes, 1, maxBytes: 7) }
        #expect(try Self.data(bytes, 1, maxBytes: 8).count == 8)
    }

    @Test("A malformed iloc leaves read() and the primary alone and is reported by itemData")
    func malformedIsLazy() throws {
        let cases: [([UInt8], HEIFError)] = [
            (Self.file(offsetSize: 3) { _ in [B.Location(id: 1, extents: [(0, 0, 0)])] },
             .malformedBox("iloc", reason: "offset_size is 3; it must be 0, 4 or 8")),
            (Self.file(version: 3) { _ in [] }, .malformedBox("iloc", reason: "version 3 is not 0, 1 or 2")),
            (Self.file { _ in [B.Location(id: 1, construction: 5, extents: [])] },
             .malformedBox("iloc", reason: "item 1 has the reserved construction method 5")),
            (Self.file(offsetSize: 8) { _ in [B.Location(id: 1, extents: [(0, 1 << 63, 1)])] },
             .malformedBox("iloc", reason: "item 1's extent_offset 9223372036854775808 is too large")),
            (Self.file(offsetSize: 8, baseOffsetSize: 8) { _ in [B.Location(id: 1, baseOffset: 1 << 62, extents: [(0, 1 << 62, 1)])] },
             .malformedBox("iloc", reason: "item 1's base_offset 4611686018427387904 plus extent_offset 4611686018427387904 overflows")),
        ]
        for (bytes, error) in cases {
            let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
            #expect(try structure.primaryImage().id == 1)
            #expect(structure.locations.isEmpty)
            #expect(throws: error) { try structure.itemData(1, from: MemoryByteSource(bytes), maxBytes: 100) }
        }
        // Cut inside the first entry, just after its item_ID.
        let cut = B.box("iloc", Array(B.iloc([B.Location(id: 1, extents: [(0, 0, 0)])])[8..<18]))
        let truncated = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], extraBoxes: [cut])
        #expect(try HEIFStructure.read(from: MemoryByteSource(truncated)).primaryID == 1)
        #expect(throws: HEIFError.truncatedBox("iloc")) { try Self.data(truncated, 1) }
    }

    @Test("Zero-byte extents cannot be multiplied past the extent limit")
    func extentBomb() throws {
        // Version 0, every field size 0: each extent costs nothing, each item 6 bytes.
        let items = 20
        var payload = B.fullBox(0) + [0, 0] + B.u16(items)
        for id in 1...items { payload += B.u16(id) + B.u16(0) + B.u16(0xFFFF) }
        let bytes = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], extraBoxes: [B.box("iloc", payload)])
        let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
        #expect(throws: HEIFError.limitExceeded("'iloc' declares more than \(HEIFLimits.maxExtents) extents")) {
            try structure.itemData(1, from: MemoryByteSource(bytes), maxBytes: 100)
        }
        let manyItems = B.box("iloc", B.fullBox(2) + [0, 0] + B.u32(HEIFLimits.maxItems + 1))
        #expect(throws: HEIFError.limitExceeded("'iloc' declares \(HEIFLimits.maxItems + 1) items, more than \(HEIFLimits.maxItems)")) {
            try Self.data(B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], extraBoxes: [manyItems]), 1)
        }
    }

    @Test("The first iloc entry of an item wins")
    func duplicates() throws {
        let bytes = Self.file { start in
            [B.Location(id: 1, extents: [(0, UInt64(start), 5)]), B.Location(id: 1, extents: [(0, UInt64(start + 13), 3)])]
        }
        #expect(Self.text(try Self.data(bytes, 1)) == "hello")
    }

    @Test("FileByteSource reads the same extents with pread")
    func fromFile() throws {
        let bytes = Self.file { start in [B.Location(id: 1, extents: [(0, UInt64(start + 7), 5), (0, UInt64(start), 5)])] }
        let directory = TemporaryDirectory()
        let path = directory.file("tiles.heic", bytes)
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let source = FileByteSource(fd: fd, size: bytes.count)
        let structure = try HEIFStructure.read(from: source)
        #expect(Self.text(try structure.itemData(1, from: source, maxBytes: 100)) == "tileshello")
    }
}
