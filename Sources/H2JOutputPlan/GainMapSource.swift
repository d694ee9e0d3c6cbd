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
/// remapped (`appleCodeMapping`); else a gain map described by Adobe's `hdrgm:` XMP
/// (`hdrgmGainMapURNs`: Samsung's, Adobe's pre-ISO one), its values from the gain map's
/// own XMP (a `cdsc` XMP item naming it), else from the primary's, restated
/// (`GainMapMetadata(adobe:)`). A gain map whose base is the HDR rendition (a PQ or HLG
/// primary) is applied to it for the SDR rendition (`hdrBase`) and written as the gain
/// map back to the HDR base (`exchangingBaseAndAlternate`); with any other base it is
/// not used.
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
    /// When the source's base image is the HDR rendition: the metadata as the file states
    /// it (HDR base → SDR), which the converter applies to the primary for its SDR
    /// rendition; `metadata` is then the gain map from that SDR back to the HDR base.
    package var hdrBase: GainMapMetadata? = nil

    /// The primary's gain map; or nil, with a warning when there is one that cannot be used.
    /// Reads only the gain map's metadata items, and the primary's EXIF only for an Apple
    /// gain map whose XMP gives no headroom (a file with no gain map costs no read).
    package static func find(_ structure: HEIFStructure, source: ByteSource) -> (GainMapSource?, Warning?) {
        func xmp(of item: UInt32) -> [UInt8]? { (try? SourceMetadata(storedIn: structure, primary: item, source: source))?.xmp }
        var ignored: String?
        if let tmap = structure.toneMappedImage(from: source), let gainMap = tmap.gainMap {
            switch tmap.metadata {
            case .success(let metadata) where metadata.baseIsHDR:
                let description = "ISO 21496-1 gain map ('tmap' item \(tmap.id), gain map item \(gainMap))"
                if let found = hdrBase(gainMap, metadata, structure, toneMap: tmap.id, description: description) { return (found, nil) }
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
        if let item = structure.hdrgmGainMap {
            let ownXMP = xmp(of: item)
            let placement = ownXMP.flatMap(AdobeGainMapXMP.read).map { ($0, "its own XMP") }
                ?? xmp(of: structure.primaryID).flatMap(AdobeGainMapXMP.read).map { ($0, "the primary's XMP") }
            switch placement {
            case (.success(let values), let origin)?:
                let metadata = GainMapMetadata(adobe: values)
                let description = "Adobe gain map (hdrgm values from \(origin), gain map item \(item))"
                if !metadata.baseIsHDR {
                    return (GainMapSource(item: item, metadata: metadata, codeMapping: nil, xmp: nil, toneMap: nil,
                                          description: description + (ignored.map { "; \($0)" } ?? "")), nil)
                }
                if let found = hdrBase(item, metadata, structure, toneMap: nil, description: description) { return (found, nil) }
                ignored = ignored ?? "the gain map (item \(item))'s base image is the HDR rendition, and its gain map (to SDR) is not used"
            case (.failure(let refusal), let origin)?:
                ignored = ignored ?? "the gain map (item \(item))'s hdrgm values in \(origin) cannot be used: \(refusal)"
            case nil:
                ignored = ignored ?? "the gain map (item \(item)) has no hdrgm values in its XMP or the primary's"
            }
        }
        // A PQ or HLG primary still gets an HDR rendition: a gain map computed from it.
        let outcome = structure.hdrTransferName() == nil ? "written as SDR only" : "the gain map is computed from the HDR primary instead"
        return (nil, ignored.map { Warning(.gainMapNotUsed, $0 + ": " + outcome) })
    }

    /// The gain map `item` of an HDR base (`metadata` as the file states it), when the
    /// primary is PQ or HLG, which the SDR rendition can be computed from; nil otherwise.
    /// Its own XMP is not kept: its values would contradict the exchanged ones.
    private static func hdrBase(_ item: UInt32, _ metadata: GainMapMetadata, _ structure: HEIFStructure, toneMap: UInt32?,
                                description: String) -> GainMapSource? {
        guard let transfer = structure.hdrTransferName() else { return nil }
        return GainMapSource(item: item, metadata: metadata.exchangingBaseAndAlternate, codeMapping: nil, xmp: nil, toneMap: toneMap,
                             description: description + " applied to the \(transfer) base for the SDR rendition",
                             hdrBase: metadata)
    }
}
