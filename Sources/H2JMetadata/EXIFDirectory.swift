import H2JSupport

/// Read-only view of a parsed EXIF/TIFF blob: its IFDs and typed access to tag values.
///
/// Build one with `init(tiff:)`, `init(app1Payload:)` (a JPEG APP1 payload starting with
/// `Exif\0\0`) or `init(heifExifItem:)`. Lookups by `(ifd, tag)` use the first IFD of
/// that kind (breadth-first from IFD0) and the first entry with that tag.
///
/// Invariant: every accessor returns nil rather than reading outside `tiff`, and
/// allocates at most the size of the value's bytes, which lie inside `tiff`.
package struct EXIFDirectory: Sendable, Equatable {
    /// The TIFF bytes, starting at the `II`/`MM` header.
    package let tiff: [UInt8]
    package let bigEndian: Bool
    /// Every IFD read; `ifds[0]` is IFD0. Parents precede their children.
    package let ifds: [TIFFIFD]
    /// IFDs that were pointed at but could not be read (IFD0 failures throw instead).
    package let unreadable: [TIFFUnreadableIFD]

    init(tiff: [UInt8], bigEndian: Bool, ifds: [TIFFIFD], unreadable: [TIFFUnreadableIFD]) {
        self.tiff = tiff
        self.bigEndian = bigEndian
        self.ifds = ifds
        self.unreadable = unreadable
    }

    /// Parses TIFF bytes starting at the byte-order mark.
    package init(tiff: [UInt8]) throws(EXIFError) {
        self = try TIFFReader.read(tiff)
    }

    /// Parses a JPEG APP1 payload: `Exif\0\0` followed by TIFF bytes.
    package init(app1Payload: [UInt8]) throws(EXIFError) {
        guard app1Payload.count >= 6, app1Payload.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) else {
            throw .noTIFFHeader
        }
        try self.init(tiff: Array(app1Payload.dropFirst(6)))
    }

    /// Parses a HEIF `Exif` item, locating the TIFF header with `TIFFHeaderLocator`.
    package init(heifExifItem item: [UInt8]) throws(EXIFError) {
        guard let start = TIFFHeaderLocator.locate(in: item) else { throw .noTIFFHeader }
        try self.init(tiff: Array(item[start...]))
    }

    private var reader: ByteReader { ByteReader(tiff, bigEndian: bigEndian) }

    // MARK: Structure

    /// The first IFD of `kind`.
    package func ifd(_ kind: EXIFIFDKind) -> TIFFIFD? { ifds.first { $0.kind == kind } }

    /// Index in `ifds` of the first IFD of `kind`.
    package func index(of kind: EXIFIFDKind) -> Int? { ifds.firstIndex { $0.kind == kind } }

    /// The first entry with `tag` in the first IFD of `kind`.
    package func entry(_ kind: EXIFIFDKind, _ tag: UInt16) -> TIFFEntry? { ifd(kind)?.entry(tag) }

    // MARK: Values by (ifd, tag)

    /// Raw value bytes of (ifd, tag), in file byte order.
    package func rawValue(_ kind: EXIFIFDKind, _ tag: UInt16) -> [UInt8]? { entry(kind, tag).flatMap(rawValue) }

    /// BYTE / SHORT / LONG / IFD values of (ifd, tag) widened to UInt32.
    package func unsignedIntegers(_ kind: EXIFIFDKind, _ tag: UInt16) -> [UInt32]? {
        entry(kind, tag).flatMap(unsignedIntegers)
    }

    /// The first BYTE / SHORT / LONG / IFD value of (ifd, tag).
    package func unsignedInteger(_ kind: EXIFIFDKind, _ tag: UInt16) -> UInt32? {
        unsignedIntegers(kind, tag)?.first
    }

    /// ASCII (or UNDEFINED/BYTE text) of (ifd, tag) up to the first NUL.
    package func string(_ kind: EXIFIFDKind, _ tag: UInt16) -> String? { entry(kind, tag).flatMap(string) }

    /// RATIONAL / SRATIONAL values of (ifd, tag).
    package func rationals(_ kind: EXIFIFDKind, _ tag: UInt16) -> [TIFFRational]? {
        entry(kind, tag).flatMap(rationals)
    }

    // MARK: Values by entry

    package func rawValue(_ entry: TIFFEntry) -> [UInt8]? {
        guard let range = entry.valueRange else { return nil }
        return Array(tiff[range])
    }

    package func unsignedIntegers(_ entry: TIFFEntry) -> [UInt32]? {
        guard let range = entry.valueRange else { return nil }
        let r = reader
        let size: Int
        switch entry.type {
        case TIFFFieldType.byte, TIFFFieldType.undefined: size = 1
        case TIFFFieldType.short: size = 2
        case TIFFFieldType.long, TIFFFieldType.ifd: size = 4
        default: return nil
        }
        var values: [UInt32] = []
        values.reserveCapacity(range.count / size)  // bounded by the data, not by `count`
        var at = range.lowerBound
        while at < range.upperBound {
            let value: UInt32? = switch size {
            case 1: r.u8(at).map(UInt32.init)
            case 2: r.u16(at).map(UInt32.init)
            default: r.u32(at)
            }
            guard let value else { return nil }
            values.append(value)
            at += size
        }
        return values
    }

    package func string(_ entry: TIFFEntry) -> String? {
        guard let range = entry.valueRange,
              [TIFFFieldType.ascii, TIFFFieldType.undefined, TIFFFieldType.byte].contains(entry.type) else { return nil }
        let bytes = tiff[range].prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    package func rationals(_ entry: TIFFEntry) -> [TIFFRational]? {
        guard let range = entry.valueRange else { return nil }
        let r = reader
        let signed: Bool
        switch entry.type {
        case TIFFFieldType.rational: signed = false
        case TIFFFieldType.srational: signed = true
        default: return nil
        }
        return stride(from: range.lowerBound, to: range.upperBound, by: 8).compactMap { at in
            guard let n = r.u32(at), let d = r.u32(at + 4) else { return nil }
            return signed ? TIFFRational(Int64(Int32(bitPattern: n)), Int64(Int32(bitPattern: d)))
                          : TIFFRational(Int64(n), Int64(d))
        }
    }
}
