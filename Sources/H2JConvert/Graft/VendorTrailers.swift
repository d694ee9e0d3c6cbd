import H2JContainer
import H2JMetadata
import H2JSupport

/// Vendor data a HEIF carries outside its items, which exiftool reads from the source:
/// carried into the JPEG where JPEG has a place for it, otherwise named in a warning.
///
/// - `sefd` (Samsung, e.g. Galaxy S10+ and later): its payload is a Samsung SEF trailer
///   (data blocks, an `SEFH` directory of offsets relative to that directory, and a
///   length + `SEFT` tail), exactly what Samsung's own JPEGs append after EOI. It is
///   position-independent, so it is appended after our EOI byte for byte, and exiftool
///   reads the same `Samsung` group from the output.
/// - `mpvd` (Samsung motion photo): an MP4 video. A JPEG motion photo needs its own
///   container layout and XMP offsets, which this tool does not write; warned about.
/// - Bytes after the last complete top-level box: unknown, warned about.
///
/// Only keep mode carries anything; strip mode writes pixels only.
struct VendorTrailers {
    /// Bytes to append after the JPEG's EOI marker, or nil.
    private(set) var jpegTrailer: [UInt8]?
    private(set) var warnings: [Warning] = []

    /// Largest `sefd` payload carried (real ones hold depth maps and edit data, a few MB).
    static let maxTrailerBytes = 64 << 20
    /// The tail every SEF trailer ends with: the high half of its little-endian directory
    /// length (always under 64 KB) and the magic, as exiftool recognises it.
    static let sefTail: [UInt8] = [0, 0] + Array("SEFT".utf8)

    init(structure: HEIFStructure, source: ByteSource, mode: MetadataMode) throws(HEIFError) {
        guard mode == .keep else { return }
        for box in structure.vendorBoxes {
            switch box.type {
            case "sefd":
                guard box.payload.count <= Self.maxTrailerBytes else {
                    warnings.append(Warning(.trailerNotCarried, "Samsung trailer ('sefd' box, \(box.payload.count) bytes) is over the \(Self.maxTrailerBytes >> 20) MB limit; not carried over"))
                    continue
                }
                let payload = try source.containerBytes(at: box.payload.lowerBound, count: box.payload.count)
                guard payload.count >= 16, payload.suffix(Self.sefTail.count).elementsEqual(Self.sefTail) else {
                    warnings.append(Warning(.trailerNotCarried, "'sefd' box (\(payload.count) bytes) does not end like a Samsung SEF trailer; not carried over"))
                    continue
                }
                jpegTrailer = payload
            case "mpvd":
                warnings.append(Warning(.motionPhotoNotCarried, "motion-photo video ('mpvd' box, \(box.payload.count) bytes) is not carried over: JPEG motion photos are not written"))
            default:
                break
            }
        }
        if let tail = structure.bytesAfterLastBox {
            warnings.append(Warning(.trailingBytesNotCarried, "\(tail.count) bytes after the last complete box (offset \(tail.lowerBound)) are not a box; not carried over"))
        }
    }
}
