/// Why a HEIF container could not be used. Each case names the box or item at fault.
public enum HEIFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A box header or payload runs past its parent or the file.
    case truncatedBox(String)
    /// The top-level box sequence is broken (sizes that do not add up to the file).
    case corruptStructure(String)
    /// A required box is absent.
    case missingBox(String)
    /// A box holds a value outside what the format allows.
    case malformedBox(String, reason: String)
    /// An item ID is referenced but not declared in `iinf`.
    case missingItem(referencedBy: String, id: UInt32)
    /// The item `pitm` names cannot be shown as the photo.
    case unusablePrimary(id: UInt32, reason: String)
    /// A limit that protects memory was exceeded.
    case limitExceeded(String)

    public var description: String {
        switch self {
        case .truncatedBox(let box):
            let readable = box.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "/" }
            return readable ? "'\(box)' box is truncated" : "a box with a garbled type ('\(box)') runs past its container"
        case .corruptStructure(let reason): return "corrupt file structure: \(reason)"
        case .missingBox(let box): return "no '\(box)' box"
        case .malformedBox(let box, let reason): return "malformed '\(box)' box: \(reason)"
        case .missingItem(let by, let id): return "\(by) references item \(id), which does not exist"
        case .unusablePrimary(let id, let reason): return "primary item \(id) \(reason)"
        case .limitExceeded(let what): return "limit exceeded: \(what)"
        }
    }
}
