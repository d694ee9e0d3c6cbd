import H2JSupport

/// Why a HEIF container could not be used. Each case names the box or item at fault.
package enum HEIFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A box header or payload runs past its parent or the file.
    case truncatedBox(String)
    /// The top-level box sequence is broken (sizes that do not add up to the file).
    case corruptStructure(String)
    /// A required box is absent.
    case missingBox(String)
    /// The file holds image sequences (`moov` tracks, named with their frame counts) and
    /// no still image (no `meta` box): valid HEIF, but nothing heic2jpg converts.
    case imageSequenceOnly(String)
    /// A box holds a value outside what the format allows.
    case malformedBox(String, reason: String)
    /// An item ID is referenced but not declared in `iinf`.
    case missingItem(referencedBy: String, id: UInt32)
    /// An image item (the one `pitm` names, or another photo of the file) cannot be shown.
    case unusableImage(id: UInt32, reason: String)
    /// A limit that protects memory was exceeded.
    case limitExceeded(String)
    /// An item's data was asked for, but `iloc` does not locate it.
    case missingLocation(item: UInt32)
    /// An extent of the item lies (partly) past the end of the file, or of `idat` when
    /// `inIdat`. `length` 0 is an extent that runs to the end.
    case itemDataOutOfRange(item: UInt32, offset: Int, length: Int, size: Int, inIdat: Bool)
    /// The item's data is stored in a way this reader does not follow (another file, other items).
    case unsupportedItemData(item: UInt32, reason: String)
    /// The image is coded in something heic2jpg does not decode (`decodableTypes`).
    case unsupportedCodec(item: UInt32, type: String)
    /// A JPEG item or an uncompressed image is the input of a derived image (a grid's
    /// tile): heic2jpg decodes those only as images of their own (`standaloneTypes`).
    case unsupportedDerivedInput(item: UInt32, type: String)
    /// The file could not be read (an I/O error, or it shrank while being read).
    case unreadable(ReadError)

    /// A read failure as the container reports it: a range outside the file means a box
    /// or extent that runs past the end, i.e. a truncated file.
    package init(_ error: ReadError) {
        switch error {
        case .outOfRange: self = .truncatedBox("file")
        case .system, .endOfFile: self = .unreadable(error)
        }
    }

    package var description: String {
        switch self {
        case .truncatedBox(let box):
            let readable = box.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "/" }
            return readable ? "'\(box)' box is truncated" : "a box with a garbled type ('\(box)') runs past its container"
        case .corruptStructure(let reason): return "corrupt file structure: \(reason)"
        case .missingBox(let box): return "no '\(box)' box"
        case .imageSequenceOnly(let sequences):
            return "\(sequences) and no still image (no 'meta' box): heic2jpg converts still images only"
        case .malformedBox(let box, let reason): return "malformed '\(box)' box: \(reason)"
        case .missingItem(let by, let id): return "\(by) references item \(id), which does not exist"
        case .unusableImage(let id, let reason): return "image item \(id) \(reason)"
        case .limitExceeded(let what): return "limit exceeded: \(what)"
        case .missingLocation(let item): return "item \(item) has no location in 'iloc'"
        case .itemDataOutOfRange(let item, let offset, let length, let size, let inIdat):
            let extent = length == 0 ? "offset \(offset), to the end" : "offset \(offset), \(length) bytes"
            return "item \(item)'s data (\(extent)) lies outside the \(size)-byte \(inIdat ? "'idat' box" : "file")"
        case .unsupportedItemData(let item, let reason): return "item \(item)'s data cannot be read: \(reason)"
        case .unsupportedCodec(let item, let type):
            return "item \(item) is \(Self.codecName(type)): heic2jpg decodes HEVC, AV1, JPEG and uncompressed images only"
        case .unsupportedDerivedInput(let item, let type):
            return "item \(item) is \(Self.codecName(type)) used as an input of a derived image heic2jpg does not compose: heic2jpg decodes those only as images of their own or in the overlays, identity derivations and grids it composes"
        case .unreadable(let error): return "cannot read: \(error)"
        }
    }
}

extension HEIFError {
    /// A coded item type in words: `AVC (H.264, 'avc1')`.
    package static func codecName(_ type: String) -> String {
        switch type {
        case "avc1": "AVC (H.264, 'avc1')"
        case "vvc1": "VVC (H.266, 'vvc1')"
        case "j2k1": "JPEG 2000 ('j2k1')"
        case "lhv1": "layered HEVC ('lhv1')"
        case "jpeg": "a JPEG ('jpeg' item)"
        case "unci": "uncompressed (ISO/IEC 23001-17, 'unci')"
        default: "coded as '\(type)'"
        }
    }
}

extension HEIFError: CodedError {
    package var code: ErrorCode {
        switch self {
        case .truncatedBox, .corruptStructure, .itemDataOutOfRange: .truncated
        case .missingBox, .malformedBox, .missingItem, .unusableImage, .missingLocation: .corruptContainer
        case .limitExceeded: .limitExceeded
        case .unsupportedItemData, .unsupportedCodec, .imageSequenceOnly, .unsupportedDerivedInput: .unsupported
        case .unreadable(let error): ErrorCode(errno: error.errno, otherwise: .sourceUnreadable)
        }
    }
}
