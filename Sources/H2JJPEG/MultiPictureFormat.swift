/// CIPA DC-007 Multi-Picture Format: the APP2 `MPF\0` segments that join several JPEGs
/// into one file, each image after the previous one's EOI. Stereo pairs (an MPO, MP type
/// "disparity") and Ultra HDR JPEGs (the SDR primary, then its gain map) are laid out
/// this way.
///
/// The first image's segment holds the MP Index IFD: one 16-byte entry per image with
/// its type, size and offset. Offsets count from the MP header, the byte after `MPF\0`
/// in that segment. The segment's length depends only on the number of images, so a
/// writer that streams the first image writes `indexSegment` with zero sizes and
/// offsets, and once the sizes are known rewrites the same number of bytes in place.
/// Each later image opens (after its SOI) with `attributeSegment`, its MP Attribute IFD.
///
/// Everything is big-endian (`MM`), as cameras write it.
package enum MultiPictureFormat {
    /// MP type codes (CIPA DC-007 §5.2.3.3.1), in the low 24 bits of an entry's attribute.
    package enum ImageType: UInt32, Sendable {
        /// The primary of a file whose other images are not views of it (Ultra HDR's SDR image).
        case baselinePrimary = 0x03_0000
        /// One view of a stereo (multi-view disparity) set.
        case disparity = 0x02_0002
        /// Image data of no MP type: a gain map.
        case undefined = 0x00_0000
    }

    /// One image of the file.
    package struct Image: Sendable, Equatable {
        package var type: ImageType
        /// Bytes from its SOI through its EOI (for the first image: its own MPF segment included).
        package var size: Int
        /// From the MP header in the first image's segment to this image's SOI; 0 for the first.
        package var offset: Int

        package init(type: ImageType, size: Int = 0, offset: Int = 0) {
            self.type = type
            self.size = size
            self.offset = offset
        }
    }

    /// From the segment's first byte to the MP header: marker (2), length (2), `MPF\0` (4).
    package static let headerOffset = 8

    /// The first image's APP2 segment (marker, length, payload): the MP Index IFD with an
    /// entry per image, and, for a stereo set, the first image's MP Attribute IFD too.
    /// The first image is marked representative (the one to show). nil when the values
    /// do not fit the format's 32-bit fields.
    package static func indexSegment(_ images: [Image]) -> [UInt8]? {
        guard !images.isEmpty, images.allSatisfy({ $0.size >= 0 && $0.size <= 0xFFFF_FFFF && $0.offset >= 0 && $0.offset <= 0xFFFF_FFFF })
        else { return nil }
        var entries: [UInt8] = []
        for (index, image) in images.enumerated() {
            let representative: UInt32 = index == 0 ? 1 << 29 : 0
            entries += u32(representative | image.type.rawValue) + u32(UInt32(image.size)) + u32(UInt32(image.offset)) + u16(0) + u16(0)
        }
        var index = IFD()
        index.add(0xB000, type: 7, count: 4, Array("0100".utf8))
        index.add(0xB001, type: 4, count: 1, u32(UInt32(images.count)))
        index.add(0xB002, type: 7, count: entries.count, entries)
        let attributes = images[0].type == .disparity ? attributeIFD(number: 1, type: .disparity) : nil
        return segment(index, next: attributes)
    }

    /// The APP2 segment that opens image `number` (2, 3, …) after its SOI: its MP
    /// Attribute IFD (MP version and individual number; for a stereo view, the base
    /// viewpoint and, as unknown, the convergence angle and baseline length).
    package static func attributeSegment(number: Int, type: ImageType) -> [UInt8] {
        segment(attributeIFD(number: number, type: type), next: nil) ?? []
    }

    /// Joins whole JPEGs into one file: the first gets the index segment right after its
    /// SOI and leading APP0/APP1 segments (EXIF stays first), the others an attribute
    /// segment after their SOI. nil when a JPEG does not start with SOI or the sizes do
    /// not fit.
    package static func join(_ jpegs: [(bytes: [UInt8], type: ImageType)]) -> [UInt8]? {
        guard let first = jpegs.first, let insertAt = insertionPoint(first.bytes),
              jpegs.allSatisfy({ $0.bytes.starts(with: [0xFF, 0xD8]) }) else { return nil }
        let others = jpegs.dropFirst().enumerated().map { number, jpeg in
            [0xFF, 0xD8] + attributeSegment(number: number + 2, type: jpeg.type) + jpeg.bytes.dropFirst(2)
        }
        var images = jpegs.map { Image(type: $0.type) }
        guard let placeholder = indexSegment(images) else { return nil }
        images[0].size = first.bytes.count + placeholder.count
        var start = images[0].size
        for (k, other) in others.enumerated() {
            images[k + 1].size = other.count
            images[k + 1].offset = start - (insertAt + headerOffset)
            start += other.count
        }
        guard let index = indexSegment(images) else { return nil }
        return Array(first.bytes[..<insertAt]) + index + first.bytes[insertAt...] + others.joined()
    }

    /// For a file streamed image after image, whose first image carries the placeholder
    /// `indexSegment` (zero sizes and offsets): the final index segment and where it goes.
    /// `header` is the first image's header segments, read from the file's start; `starts` is
    /// each image's first byte in the file (the first's is 0) and `end` the file's size.
    /// The result has the placeholder's length, so it is written over it in place. nil
    /// when `header` holds no index segment for as many images, or the sizes do not fit.
    package static func finalIndex(header segments: JPEGSegments, types: [ImageType], starts: [Int], end: Int) -> (at: Int, segment: [UInt8])? {
        let header = segments.bytes
        guard types.count == starts.count, starts.first == 0,
              let placeholder = indexSegment(types.map { Image(type: $0) }),
              let found = segments.segments.first(where: { segment in
                  segment.marker == 0xE2 && header[segment.payload].starts(with: Array("MPF\0".utf8))
              }), found.range.count == placeholder.count else { return nil }
        let mpHeader = found.range.lowerBound + headerOffset
        var images: [Image] = []
        for (k, type) in types.enumerated() {
            let next = k + 1 < starts.count ? starts[k + 1] : end
            guard next > starts[k] else { return nil }
            images.append(Image(type: type, size: next - starts[k], offset: k == 0 ? 0 : starts[k] - mpHeader))
        }
        guard let index = indexSegment(images), index.count == placeholder.count else { return nil }
        return (found.range.lowerBound, index)
    }

    /// One image an MP Index IFD lists, as read back.
    package struct Listed: Sendable, Equatable {
        /// The MP type code (the entry attribute's low 24 bits): `ImageType` values and others.
        package let typeCode: UInt32
        package let size: Int
        /// From the file's first byte (the MP header's position added): 0 for the first image.
        package let start: Int
    }

    /// The images the index segment of a JPEG lists, from the payload of its first
    /// `MPF\0` APP2 (signature included) found at `payloadStart` in the file. nil when it
    /// is not a readable MP Index IFD. Never traps.
    package static func listed(payload: ArraySlice<UInt8>, payloadStart: Int) -> [Listed]? {
        let bytes = Array(payload)
        guard bytes.starts(with: Array("MPF\0".utf8)) else { return nil }
        let tiff = Array(bytes.dropFirst(4))
        let big: Bool
        switch (tiff.first, tiff.dropFirst().first) {
        case (0x4D, 0x4D): big = true
        case (0x49, 0x49): big = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return big ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(big ? at : at + 2), let low = u16(big ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard let tag = u16(entry) else { return nil }
            guard tag == 0xB002, let length = u32(entry + 4), let offset = u32(entry + 8), length % 16 == 0,
                  offset + length <= tiff.count else { continue }
            let header = payloadStart + 4
            return (0..<(length / 16)).compactMap { k in
                let at = offset + 16 * k
                guard let attribute = u32(at), let size = u32(at + 4), let start = u32(at + 8) else { return nil }
                return Listed(typeCode: UInt32(attribute) & 0xFF_FFFF, size: size, start: k == 0 ? 0 : header + start)
            }
        }
        return nil
    }

    /// The name of an MP type code: `baseline MP primary image`, `disparity`, `undefined`, …
    package static func typeName(_ code: UInt32) -> String {
        switch code {
        case 0x03_0000: "baseline MP primary image"
        case 0x01_0001: "large thumbnail (VGA)"
        case 0x01_0002: "large thumbnail (full HD)"
        case 0x02_0001: "panorama"
        case 0x02_0002: "disparity"
        case 0x02_0003: "multi-angle"
        case 0x00_0000: "undefined"
        default: "type 0x" + String(code, radix: 16)
        }
    }

    /// After SOI and the APP0 (JFIF) and APP1 (EXIF, XMP) segments that lead the file.
    static func insertionPoint(_ jpeg: [UInt8]) -> Int? {
        guard let segments = JPEGSegments(jpeg) else { return nil }
        var end = 2
        for segment in segments.segments {
            guard segment.range.lowerBound == end, segment.marker == 0xE0 || segment.marker == 0xE1 else { break }
            end = segment.range.upperBound
        }
        return end
    }

    private static func attributeIFD(number: Int, type: ImageType) -> IFD {
        var ifd = IFD()
        ifd.add(0xB000, type: 7, count: 4, Array("0100".utf8))
        ifd.add(0xB101, type: 4, count: 1, u32(UInt32(clamping: number)))
        if type == .disparity {
            ifd.add(0xB204, type: 4, count: 1, u32(1))
            // Unknown, as CIPA DC-007 writes it: 0xFFFFFFFF over 0xFFFFFFFF.
            ifd.add(0xB205, type: 10, count: 1, u32(0xFFFF_FFFF) + u32(0xFFFF_FFFF))
            ifd.add(0xB206, type: 5, count: 1, u32(0xFFFF_FFFF) + u32(0xFFFF_FFFF))
        }
        return ifd
    }

    /// One IFD's entries before layout: tag, TIFF type, count, value bytes.
    private struct IFD {
        var entries: [(tag: UInt16, type: UInt16, count: Int, value: [UInt8])] = []

        mutating func add(_ tag: UInt16, type: UInt16, count: Int, _ value: [UInt8]) {
            entries.append((tag, type, count, value))
        }

        var size: Int { 2 + 12 * entries.count + 4 }
    }

    /// `MPF\0`, the TIFF header, `first` at offset 8 and `next` after it, then the values
    /// over 4 bytes; as an APP2 segment. nil when it would not fit one segment.
    private static func segment(_ first: IFD, next: IFD?) -> [UInt8]? {
        let ifds = [first] + (next.map { [$0] } ?? [])
        var dataOffset = 8 + ifds.reduce(0) { $0 + $1.size }
        var tiff: [UInt8] = Array("MM".utf8) + u16(42) + u32(8)
        var data: [UInt8] = []
        for (i, ifd) in ifds.enumerated() {
            tiff += u16(UInt16(ifd.entries.count))
            for entry in ifd.entries {
                tiff += u16(entry.tag) + u16(entry.type) + u32(UInt32(entry.count))
                if entry.value.count <= 4 {
                    tiff += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    tiff += u32(UInt32(dataOffset))
                    data += entry.value
                    dataOffset += entry.value.count
                }
            }
            let nextOffset = i + 1 < ifds.count ? 8 + ifds[...i].reduce(0) { $0 + $1.size } : 0
            tiff += u32(UInt32(nextOffset))
        }
        let payload = Array("MPF\0".utf8) + tiff + data
        guard payload.count + 2 <= 0xFFFF else { return nil }
        return [0xFF, 0xE2] + u16(UInt16(payload.count + 2)) + payload
    }

    private static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    private static func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
