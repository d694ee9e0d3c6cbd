import H2JContainer
import H2JJPEG
import H2JMetadata

/// The gain map of an Ultra HDR JPEG (Android's Ultra HDR, Adobe's gain map, ISO
/// 21496-1), as `inspect` recognises it from header segments alone: an image of the MP
/// Index whose own header carries gain-map metadata (`hdrgm:` XMP, or an ISO 21496-1 APP2
/// with more than the version fields), which the primary announces (`hdrgm:Version` in
/// its XMP, a version-only ISO APP2).
package struct JPEGGainMap: Sendable, Equatable {
    /// Its position among the MP Index's images, the primary being 1.
    package var image: Int
    package var size: ImageSize?
    /// Its metadata is given as Adobe's `hdrgm:` XMP, as an ISO 21496-1 APP2, or both.
    package var hdrgm = false
    package var iso21496 = false
    /// The primary announces it (`hdrgm:Version`, a version-only ISO 21496-1 APP2).
    package var announced = false
    /// The ISO 21496-1 metadata of its APP2, or why a reader must ignore it; nil without one.
    package var metadata: Result<GainMapMetadata, GainMapMetadata.Refusal>?
    /// Adobe's headrooms in stops (`hdrgm:HDRCapacityMin`, `hdrgm:HDRCapacityMax`), when its XMP gives them.
    package var capacityMin: Double?
    package var capacityMax: Double?

    /// The headrooms in stops, of the base and of the alternate rendition: the ISO
    /// metadata's when it is usable, else Adobe's (a missing `HDRCapacityMin` is 0).
    package var headrooms: (base: Double, alternate: Double)? {
        if case .success(let iso)? = metadata, let base = iso.baseHDRHeadroom.value, let alternate = iso.alternateHDRHeadroom.value {
            return (base, alternate)
        }
        return capacityMax.map { (capacityMin ?? 0, $0) }
    }

    /// The gain map among the MP Index's `images` (their header segments by position,
    /// the primary's at 0), and a warning when the primary announces one that no image
    /// carries; (nil, nil) for a JPEG that is not Ultra HDR.
    static func find(primary: JPEGSegments, images: [Int: JPEGSegments], sizes: [Int: ImageSize])
        -> (gainMap: JPEGGainMap?, warning: String?) {
        let announcedBy = [primary.xmpPacket.flatMap { XMPSimpleValue.text("hdrgm:Version", in: $0) } != nil ? "hdrgm:Version" : nil,
                           isoPayload(primary) != nil ? "an ISO 21496-1 APP2" : nil].compactMap { $0 }
        for index in images.keys.sorted() where index > 0 {
            guard let header = images[index] else { continue }
            let xmp = header.xmpPacket
            let hdrgm = xmp.flatMap { XMPSimpleValue.text("hdrgm:GainMapMax", in: $0) } != nil
            let iso = isoPayload(header).flatMap { $0.count > GainMapMetadata.isoVersionPayload.count ? $0 : nil }
            guard hdrgm || iso != nil else { continue }
            var gainMap = JPEGGainMap(image: index + 1, size: sizes[index], hdrgm: hdrgm, iso21496: iso != nil,
                                      announced: !announcedBy.isEmpty)
            // The APP2 payload is a `tmap` item's body without its leading version byte.
            gainMap.metadata = iso.map { GainMapMetadata.parse([0] + $0) }
            if let xmp {
                gainMap.capacityMin = XMPSimpleValue.number("hdrgm:HDRCapacityMin", in: xmp)
                gainMap.capacityMax = XMPSimpleValue.number("hdrgm:HDRCapacityMax", in: xmp)
            }
            return (gainMap, nil)
        }
        guard !announcedBy.isEmpty else { return (nil, nil) }
        return (nil, "the primary announces a gain map (\(announcedBy.joined(separator: ", "))), but no Multi-Picture image carries one")
    }

    /// The payload of a header's first ISO 21496-1 APP2, signature removed.
    private static func isoPayload(_ header: JPEGSegments) -> [UInt8]? {
        header.payloads(0xE2, signature: JPEGAPPSignature.iso21496).first.map(Array.init)
    }
}
