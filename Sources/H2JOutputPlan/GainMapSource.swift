import H2JContainer
import H2JMetadata
import H2JSupport

extension Warning.Code {
    /// The source's gain map cannot be used (ISO 21496-1 says to ignore it, or its
    /// headroom is unknown): the output is SDR only.
    package static let gainMapNotUsed = Warning.Code("gain-map-not-used")
}

/// The HDR gain map of a source's primary, as an Ultra HDR JPEG needs it: the image item
/// that holds it, the ISO 21496-1 metadata, and how its codes become ISO's.
///
/// An ISO 21496-1 `tmap` item that ISO says to honour wins (Samsung, the iPhone from iOS
/// 18, libavif): its metadata is used as it is, with its gain map's codes. Otherwise an
/// Apple gain map (`urn:com:apple:photo:2020:aux:hdrgainmap`) is restated in ISO terms
/// (`GainMapMetadata.apple`), its headroom from its XMP or the maker note, its codes
/// remapped (`appleCodeMapping`). A `tmap` whose base is the HDR rendition is not used:
/// the primary would have to be tone-mapped first.
package struct GainMapSource: Sendable {
    package let item: UInt32
    package let metadata: GainMapMetadata
    /// Apple's codes → ISO's; nil when the codes are ISO's already.
    package let codeMapping: [UInt8]?
    /// The gain map's own XMP (Apple's version and headroom), which its JPEG keeps.
    package let xmp: [UInt8]?
    /// The `tmap` item carried with it, if any.
    package let toneMap: UInt32?
    /// For the report: what the HDR rendition comes from.
    package let description: String

    /// The primary's gain map; or nil, with a warning when there is one that cannot be used.
    /// Reads only the gain map's metadata items, and the primary's EXIF only for an Apple
    /// gain map whose XMP gives no headroom (a file with no gain map costs no read).
    package static func find(_ structure: HEIFStructure, source: ByteSource) -> (GainMapSource?, Warning?) {
        func xmp(of item: UInt32) -> [UInt8]? { (try? SourceMetadata(storedIn: structure, primary: item, source: source))?.xmp }
        var ignored: String?
        if let tmap = structure.toneMappedImage(from: source), let gainMap = tmap.gainMap {
            switch tmap.metadata {
            case .success(let metadata) where metadata.baseIsHDR:
                ignored = "the 'tmap' item \(tmap.id)'s base image is the HDR rendition, and its gain map (to SDR) is not used"
            case .success(let metadata):
                return (GainMapSource(item: gainMap, metadata: metadata, codeMapping: nil, xmp: xmp(of: gainMap), toneMap: tmap.id,
                                      description: "ISO 21496-1 gain map ('tmap' item \(tmap.id), gain map item \(gainMap))"), nil)
            case .failure(let refusal):
                ignored = "the 'tmap' item \(tmap.id) is ignored as ISO 21496-1 asks: \(refusal)"
            }
        }
        if let apple = structure.appleGainMap {
            let ownXMP = xmp(of: apple)
            let found = AppleHDRHeadroom.headroom(gainMapXMP: ownXMP, primaryExifItem: nil)
                ?? AppleHDRHeadroom.headroom(gainMapXMP: nil, primaryExifItem:
                    (try? SourceMetadata(storedIn: structure, primary: structure.primaryID, source: source))?.exif)
            guard let (headroom, origin) = found else {
                return (nil, Warning(.gainMapNotUsed, "the Apple gain map (item \(apple)) has no headroom in its XMP or the maker note: written as SDR only"))
            }
            let description = "Apple gain map (item \(apple)), headroom \(UltraHDRXMP.text(headroom)) from the \(origin.rawValue)"
            return (GainMapSource(item: apple, metadata: .apple(headroom: headroom),
                                  codeMapping: GainMapMetadata.appleCodeMapping(headroom: headroom), xmp: ownXMP, toneMap: nil,
                                  description: description + (ignored.map { "; \($0)" } ?? "")), nil)
        }
        // A PQ or HLG primary still gets an HDR rendition: a gain map computed from it.
        let outcome = structure.hdrTransferName() == nil ? "written as SDR only" : "the gain map is computed from the HDR primary instead"
        return (nil, ignored.map { Warning(.gainMapNotUsed, $0 + ": " + outcome) })
    }
}
