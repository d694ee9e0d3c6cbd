import H2JSupport

/// Why EXIF bytes could not be read or prepared.
///
/// These are internal failures of untrusted data, never programming errors: every case
/// carries enough numbers for a per-file warning that a user can act on. Offsets are
/// relative to the start of the TIFF header.
package enum EXIFError: CodedError, Sendable, Equatable, CustomStringConvertible {
    /// An EXIF item that contradicts its format: `corrupt-container` when one fails a source.
    package var code: ErrorCode { .corruptContainer }

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

    // Re-layout (`TIFFLayout`): pieces that cannot be placed safely.

    /// An out-of-line value that cannot be moved: its bytes run past the end of the data,
    /// or its field type has no known size.
    case unplaceableValue(ifd: EXIFIFDKind, tag: UInt16, type: UInt16, count: UInt32)
    /// Offset/length data (thumbnail, strips, tiles) that cannot be located: lengths
    /// missing, offsets or lengths unreadable or not SHORT/LONG, unequal in number, or
    /// blocks outside the data.
    case unplaceableData(ifd: EXIFIFDKind, tag: UInt16)
    /// A pointer or data-offset tag appears twice in one IFD; readers follow only the first.
    case duplicateStructuralTag(ifd: EXIFIFDKind, tag: UInt16)
    /// A pointer tag holding several offsets where readers follow only the first.
    case unsupportedPointer(ifd: EXIFIFDKind, tag: UInt16, count: UInt32)
    /// A SHORT array of offsets cannot hold an offset this large.
    case offsetTooLargeForShort(ifd: EXIFIFDKind, tag: UInt16, offset: Int)

    // Append-IFD edit (`TIFFIFDAppender`).

    /// Only IFD0, ExifIFD, GPS IFD, InteropIFD and IFD1 can be edited.
    case ifdNotEditable(ifd: EXIFIFDKind)
    /// The IFD to edit, or the one that must point at it, is present but unreadable.
    case editTargetUnreadable(ifd: EXIFIFDKind)
    /// The IFD to edit is not reached from its standard parent (e.g. an ExifIFD that only
    /// IFD1 points at), so repointing it could leave a second copy in use.
    case nonStandardParent(ifd: EXIFIFDKind)
    /// An IFD would get more than 65,535 entries.
    case tooManyEntries(ifd: EXIFIFDKind, count: Int)
    /// The edited blob would need offsets beyond 32 bits.
    case tooLargeForOffsets(size: Int)

    package var description: String {
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
        case let .unplaceableValue(ifd, tag, type, count):
            "\(ifd) tag 0x\(EXIFText.hex(tag)) (type \(type), count \(count)) has a value that cannot be located"
        case let .unplaceableData(ifd, tag):
            "\(ifd) tag 0x\(EXIFText.hex(tag)) points at data whose offsets or lengths cannot be read"
        case let .duplicateStructuralTag(ifd, tag):
            "\(ifd) has tag 0x\(EXIFText.hex(tag)) more than once"
        case let .unsupportedPointer(ifd, tag, count):
            "\(ifd) tag 0x\(EXIFText.hex(tag)) holds \(count) IFD offsets, more than readers follow"
        case let .offsetTooLargeForShort(ifd, tag, offset):
            "\(ifd) tag 0x\(EXIFText.hex(tag)) stores offsets as SHORT, which cannot hold \(EXIFText.bytes(offset))"
        case let .ifdNotEditable(ifd):
            "\(ifd) cannot be edited"
        case let .editTargetUnreadable(ifd):
            "\(ifd) is unreadable, so it cannot be edited"
        case let .nonStandardParent(ifd):
            "\(ifd) is not where readers expect it, so it cannot be edited"
        case let .tooManyEntries(ifd, count):
            "\(ifd) would have \(EXIFText.bytes(count)) entries, over the 65,535 an IFD holds"
        case let .tooLargeForOffsets(size):
            "EXIF would be \(EXIFText.bytes(size)) bytes, too large for 32-bit offsets"
        }
    }
}
