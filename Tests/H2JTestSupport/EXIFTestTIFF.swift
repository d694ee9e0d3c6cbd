import H2JMetadata

/// Assembles synthetic EXIF/TIFF blobs for tests, in either byte order.
///
/// Layout, in order: header, IFD0 + its values, ExifIFD + values, InteropIFD + values,
/// GPS IFD + values (each of these three after `ifdGap` zero bytes), `ifd1Gap` zero
/// bytes, IFD1 + values, `thumbnailGap` zero bytes, thumbnail, `trailingPadding` zero bytes. Pointer tags (0x8769, 0x8825, 0xA005,
/// 0x0201/0x0202) are added automatically for the parts that are present. Values are
/// placed at even offsets. `Layout` reports where everything went.
package struct EXIFTestTIFF {
    package enum Value {
        case byte([UInt8])
        case ascii(String)
        case short([UInt16])
        case long([UInt32])
        case rational([(UInt32, UInt32)])
        case undefined([UInt8])
        /// Arbitrary type/count with the given value bytes (already in file order).
        case raw(type: UInt16, count: UInt32, bytes: [UInt8])
    }

    package struct Entry {
        package var tag: UInt16
        package var value: Value
        package init(_ tag: UInt16, _ value: Value) { self.tag = tag; self.value = value }
    }

    package struct Layout {
        package var bytes: [UInt8]
        package var ifd0 = 0, exif: Int?, interop: Int?, gps: Int?, ifd1: Int?, thumbnail: Int?
        /// Offset of the 12-byte entry with `tag` in the IFD at `ifd`, by tag → offset.
        package var entryOffsets: [Int: [UInt16: Int]] = [:]
        /// One past the last byte that isn't trailing padding.
        package var end = 0
    }

    package var bigEndian = false
    package var ifd0: [Entry] = []
    package var exif: [Entry]?
    package var interop: [Entry]?
    package var gps: [Entry]?
    package var ifd1: [Entry]?
    package var thumbnail: [UInt8]?
    package var ifdGap = 0
    package var ifd1Gap = 0
    package var thumbnailGap = 0
    package var trailingPadding = 0

    package init(bigEndian: Bool = false) { self.bigEndian = bigEndian }

    /// `text` in UTF-16 code units of the given byte order, as a UNICODE UserComment holds it.
    package static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { (unit: UInt16) -> [UInt8] in
            let high = UInt8(truncatingIfNeeded: unit >> 8), low = UInt8(truncatingIfNeeded: unit)
            return bigEndian ? [high, low] : [low, high]
        }
    }

    /// A typical phone EXIF: Make/Model/Orientation/dimensions, ExifIFD with dates and
    /// pixel dimensions and interop, GPS, and IFD1 with a thumbnail.
    package static func typical(bigEndian: Bool = false, thumbnailSize: Int = 64) -> EXIFTestTIFF {
        var t = EXIFTestTIFF()
        t.bigEndian = bigEndian
        t.ifd0 = [
            Entry(EXIFTag.imageWidth, .short([4032])),
            Entry(EXIFTag.imageLength, .short([3024])),
            Entry(EXIFTag.make, .ascii("Apple")),
            Entry(EXIFTag.model, .ascii("iPhone 12 Pro")),
            Entry(EXIFTag.orientation, .short([6])),
            Entry(0x011A, .rational([(72, 1)])),
            Entry(EXIFTag.dateTime, .ascii("2023:04:27 19:44:18")),
        ]
        t.exif = [
            Entry(EXIFTag.dateTimeOriginal, .ascii("2023:04:27 19:44:18")),
            Entry(EXIFTag.makerNote, .undefined(Array("Apple iOS\u{0}MAKERNOTE-DATA-0123456789".utf8))),
            Entry(EXIFTag.pixelXDimension, .long([4032])),
            Entry(EXIFTag.pixelYDimension, .long([3024])),
        ]
        t.interop = [Entry(0x0001, .ascii("R98"))]
        t.gps = [
            Entry(EXIFTag.gpsLatitudeRef, .ascii("N")),
            Entry(EXIFTag.gpsLatitude, .rational([(47, 1), (13, 1), (38_240_039, 1_000_000)])),
            Entry(EXIFTag.gpsLongitudeRef, .ascii("E")),
            Entry(EXIFTag.gpsLongitude, .rational([(8, 1), (30, 1), (1234, 100)])),
        ]
        t.ifd1 = [
            Entry(0x0103, .short([6])),
            Entry(EXIFTag.orientation, .short([6])),
            Entry(0x011A, .rational([(72, 1)])),
        ]
        t.thumbnail = [0xFF, 0xD8] + (0..<max(0, thumbnailSize - 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [0xFF, 0xD9]
        return t
    }

    package func build() -> Layout {
        // Entries with automatic pointers; offsets patched after layout.
        var ifd0 = self.ifd0, exif = self.exif, ifd1 = self.ifd1
        if exif != nil { ifd0.append(Entry(EXIFTag.exifIFDPointer, .long([0]))) }
        if gps != nil { ifd0.append(Entry(EXIFTag.gpsIFDPointer, .long([0]))) }
        if interop != nil { exif?.append(Entry(EXIFTag.interopIFDPointer, .long([0]))) }
        if thumbnail != nil {
            ifd1 = (ifd1 ?? []) + [Entry(EXIFTag.jpegInterchangeFormat, .long([0])),
                                   Entry(EXIFTag.jpegInterchangeFormatLength, .long([UInt32(thumbnail!.count)]))]
        }

        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        out += u32(8)
        var layout = Layout(bytes: [])
        var nextFieldOfIFD0 = 0

        func writeIFD(_ entries: [Entry], key: Int) -> Int {
            if out.count % 2 == 1 { out.append(0) }
            let start = out.count
            let sorted = entries.sorted { $0.tag < $1.tag }
            out += u16(UInt16(sorted.count))
            var valueArea = start + 2 + 12 * sorted.count + 4
            var pending: [[UInt8]] = []
            var offsets: [UInt16: Int] = [:]
            for e in sorted {
                let (type, count, bytes) = encode(e.value)
                offsets[e.tag] = out.count
                out += u16(e.tag) + u16(type) + u32(count)
                if bytes.count <= 4 {
                    out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
                } else {
                    out += u32(UInt32(valueArea))
                    pending.append(bytes)
                    valueArea += bytes.count + bytes.count % 2
                }
            }
            if key == 0 { nextFieldOfIFD0 = out.count }
            out += u32(0)
            for p in pending { out += p; if p.count % 2 == 1 { out.append(0) } }
            layout.entryOffsets[start] = offsets
            return start
        }

        layout.ifd0 = writeIFD(ifd0, key: 0)
        if let exif { out += [UInt8](repeating: 0, count: ifdGap); layout.exif = writeIFD(exif, key: 1) }
        if let interop { out += [UInt8](repeating: 0, count: ifdGap); layout.interop = writeIFD(interop, key: 2) }
        if let gps { out += [UInt8](repeating: 0, count: ifdGap); layout.gps = writeIFD(gps, key: 3) }
        if let ifd1 {
            out += [UInt8](repeating: 0, count: ifd1Gap)
            layout.ifd1 = writeIFD(ifd1, key: 4)
        }
        if let thumbnail {
            out += [UInt8](repeating: 0, count: thumbnailGap)
            if out.count % 2 == 1 { out.append(0) }
            layout.thumbnail = out.count
            out += thumbnail
        }
        layout.end = out.count
        out += [UInt8](repeating: 0, count: trailingPadding)

        // Patch pointers.
        func patchValue(ifd: Int?, tag: UInt16, to value: Int?) {
            guard let ifd, let value, let e = layout.entryOffsets[ifd]?[tag] else { return }
            put32(UInt32(value), at: e + 8)
        }
        func put32(_ v: UInt32, at: Int) { out.replaceSubrange(at..<(at + 4), with: u32(v)) }
        patchValue(ifd: layout.ifd0, tag: EXIFTag.exifIFDPointer, to: layout.exif)
        patchValue(ifd: layout.ifd0, tag: EXIFTag.gpsIFDPointer, to: layout.gps)
        patchValue(ifd: layout.exif, tag: EXIFTag.interopIFDPointer, to: layout.interop)
        patchValue(ifd: layout.ifd1, tag: EXIFTag.jpegInterchangeFormat, to: layout.thumbnail)
        if let ifd1Offset = layout.ifd1 { put32(UInt32(ifd1Offset), at: nextFieldOfIFD0) }
        layout.bytes = out
        return layout
    }

    private func encode(_ v: Value) -> (UInt16, UInt32, [UInt8]) {
        switch v {
        case .byte(let b): (1, UInt32(b.count), b)
        case .ascii(let s): (2, UInt32(s.utf8.count + 1), Array(s.utf8) + [0])
        case .short(let a): (3, UInt32(a.count), a.flatMap(u16))
        case .long(let a): (4, UInt32(a.count), a.flatMap(u32))
        case .rational(let a): (5, UInt32(a.count), a.flatMap { u32($0.0) + u32($0.1) })
        case .undefined(let b): (7, UInt32(b.count), b)
        case .raw(let type, let count, let bytes): (type, count, bytes)
        }
    }

    package func u16(_ v: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }

    package func u32(_ v: UInt32) -> [UInt8] {
        let be: [UInt8] = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? be : be.reversed()
    }
}
