/// Why EXIF bytes could not be read or prepared.
///
/// These are internal failures of untrusted data, never programming errors: every case
/// carries enough numbers for a per-file warning that a user can act on. Offsets are
/// relative to the start of the TIFF header.
public enum EXIFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `II*\0` / `MM\0*` header could be found in the item.
    case noTIFFHeader
    /// The first eight bytes are not a TIFF header.
    case badTIFFHeader
    /// An IFD offset below 8 would make the IFD overlap the TIFF header.
    case ifdOffsetInsideHeader(ifd: EXIFIFDKind, offset: Int)
    /// The IFD's entry count lies past the end of the data.
    case ifdOffsetOutOfRange(ifd: EXIFIFDKind, offset: Int, tiffSize: Int)
    /// The IFD's declared entries run past the end of the data.
    case ifdTruncated(ifd: EXIFIFDKind, offset: Int, entries: Int, tiffSize: Int)
    /// The IFD was already read: following it again would loop.
    case ifdLoop(ifd: EXIFIFDKind, offset: Int)
    /// The IFD's directory overlaps the directory of an IFD already read.
    case ifdOverlaps(ifd: EXIFIFDKind, offset: Int, other: EXIFIFDKind)
    /// More IFDs than `TIFFReader.maxIFDs`: the rest were not followed.
    case tooManyIFDs(ifd: EXIFIFDKind, offset: Int)
    /// A pointer tag whose type or count cannot hold an IFD offset.
    case badPointer(ifd: EXIFIFDKind, tag: UInt16, type: UInt16, count: UInt32)
    /// The APP1 payload would be larger than one JPEG segment can hold.
    case tooLargeForAPP1(payloadSize: Int, limit: Int)

    public var description: String {
        switch self {
        case .noTIFFHeader:
            "EXIF item has no TIFF header"
        case .badTIFFHeader:
            "EXIF data does not start with a TIFF header (II*\\0 or MM\\0*)"
        case let .ifdOffsetInsideHeader(ifd, offset):
            "\(ifd) offset \(offset) points inside the 8-byte TIFF header"
        case let .ifdOffsetOutOfRange(ifd, offset, size):
            "\(ifd) offset \(EXIFText.bytes(offset)) is past the end of the \(EXIFText.bytes(size))-byte TIFF data"
        case let .ifdTruncated(ifd, offset, entries, size):
            "\(ifd) at offset \(EXIFText.bytes(offset)) declares \(entries) entries, which run past the end of the \(EXIFText.bytes(size))-byte TIFF data"
        case let .ifdLoop(ifd, offset):
            "\(ifd) at offset \(EXIFText.bytes(offset)) was already read (IFD loop)"
        case let .ifdOverlaps(ifd, offset, other):
            "\(ifd) at offset \(EXIFText.bytes(offset)) overlaps \(other)"
        case let .tooManyIFDs(ifd, offset):
            "too many IFDs; \(ifd) at offset \(EXIFText.bytes(offset)) and any after it were not read"
        case let .badPointer(ifd, tag, type, count):
            "\(ifd) tag 0x\(EXIFText.hex(tag)) has type \(type) count \(count), which cannot hold an IFD offset"
        case let .tooLargeForAPP1(size, limit):
            "EXIF is \(EXIFText.bytes(size)) bytes, over the \(EXIFText.bytes(limit)) a JPEG APP1 holds"
        }
    }
}
