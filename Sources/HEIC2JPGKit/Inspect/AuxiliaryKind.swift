/// Readable names for the `auxC` URNs of auxiliary images.
///
/// Alpha and depth have an MPEG-B CICP URN (ISO/IEC 23091-2, used by AVIF and newer
/// HEIF) and older HEVC/AVC ones (`auxid` 1 = alpha, 2 = depth, the SEI AuxId values
/// ISO/IEC 23008-12 refers to). Apple's iPhone files use `urn:mpeg:hevc:2015:auxid:2`
/// for the depth (disparity) map, checked with exiftool on an iPhone 13 Pro file, and
/// its own URNs for the HDR gain map and the portrait mattes.
enum AuxiliaryKind {
    static let names: [String: String] = [
        "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha": "alpha",
        "urn:mpeg:hevc:2015:auxid:1": "alpha",
        "urn:mpeg:avc:2015:auxid:1": "alpha",
        "urn:mpeg:mpegB:cicp:systems:auxiliary:depth": "depth",
        "urn:mpeg:hevc:2015:auxid:2": "depth",
        "urn:mpeg:avc:2015:auxid:2": "depth",
        "urn:com:apple:photo:2020:aux:hdrgainmap": "hdr-gain-map",
        "urn:com:apple:photo:2019:aux:semanticskinmatte": "skin-matte",
        "urn:com:apple:photo:2019:aux:semantichairmatte": "hair-matte",
        "urn:com:apple:photo:2019:aux:semanticteethmatte": "teeth-matte",
        "urn:com:apple:photo:2020:aux:semanticglassesmatte": "glasses-matte",
        "urn:com:apple:photo:2020:aux:semanticskymatte": "sky-matte",
        "urn:com:apple:photo:2018:aux:portraiteffectsmatte": "portrait-matte",
    ]

    /// The readable kind of `urn`, or the URN itself when it is not known.
    static func name(_ urn: String) -> String {
        names[urn] ?? urn
    }
}
