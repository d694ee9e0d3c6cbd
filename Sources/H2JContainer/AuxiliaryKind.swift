/// What an auxiliary image holds, from its `auxC` URN: the one table of auxiliary URNs,
/// read by `inspect` (a short token, `depth`) and by the converter's warnings about
/// metadata it cannot carry (a phrase, "depth map").
///
/// Alpha and depth have an MPEG-B CICP URN (ISO/IEC 23091-2, used by AVIF and newer
/// HEIF) and older HEVC/AVC ones (`auxid` 1 = alpha, 2 = depth, the SEI AuxId values
/// ISO/IEC 23008-12 refers to). iPhones use `urn:mpeg:hevc:2015:auxid:2` for the depth
/// (disparity) map (checked with exiftool on an iPhone 13 Pro file), their own URN for
/// the HDR gain map, and `…:aux:…matte` URNs for portrait and segmentation mattes
/// (`Matte`: an iPhone 16 stores the portrait, skin and sky mattes side by side).
package enum AuxiliaryKind: Sendable, Equatable {
    case alpha
    case depth
    case disparity
    case hdrGainMap
    /// A matte: one of Apple's (`urn:com:apple:photo:YEAR:aux:NAME`), or nil for
    /// another URN that names a matte.
    case matte(Matte?)
    /// A URN this table does not know.
    case other(String)

    package init(urn: String) {
        switch urn {
        case "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", "urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:avc:2015:auxid:1":
            self = .alpha
        case "urn:mpeg:mpegB:cicp:systems:auxiliary:depth", "urn:mpeg:hevc:2015:auxid:2", "urn:mpeg:avc:2015:auxid:2":
            self = .depth
        case "urn:com:apple:photo:2020:aux:hdrgainmap", "urn:com:photo:aux:hdrgainmap", "urn:com:samsung:photo:2024:aux:hdrgainmap":
            // Apple's, Adobe's pre-ISO one (Photoshop and Camera Raw exports), Samsung's (Galaxy S24, One UI 6–7).
            self = .hdrGainMap
        default:
            if urn.hasPrefix(Matte.applePrefix), let name = urn.split(separator: ":").last, let matte = Matte(rawValue: String(name)) {
                self = .matte(matte)
            } else if urn.hasSuffix(":depthmap") || urn.contains("depth") { self = .depth }
            else if urn.contains("disparity") { self = .disparity }
            else if urn.contains("matte") { self = .matte(nil) }
            else { self = .other(urn) }
        }
    }

    /// `inspect`'s `kind`: `alpha`, `depth`, `disparity`, `hdr-gain-map`, `sky-matte` (each
    /// of Apple's mattes by its name), `matte`, or the URN itself.
    package var token: String {
        switch self {
        case .alpha: "alpha"
        case .depth: "depth"
        case .disparity: "disparity"
        case .hdrGainMap: "hdr-gain-map"
        case .matte(let matte): matte.map { "\($0.name)-matte" } ?? "matte"
        case .other(let urn): urn
        }
    }

    /// For messages: "alpha plane", "depth map", "HDR gain map", "sky matte", "auxiliary
    /// image 'urn:…'".
    package var phrase: String {
        switch self {
        case .alpha: "alpha plane"
        case .depth: "depth map"
        case .disparity: "disparity map"
        case .hdrGainMap: "HDR gain map"
        case .matte(let matte): matte.map { "\($0.name) matte" } ?? "matte"
        case .other(let urn): "auxiliary image '\(urn)'"
        }
    }

    /// `phrase` after its indefinite article: "a depth map", "an HDR gain map".
    package var withArticle: String {
        switch self {
        case .alpha, .hdrGainMap, .other: "an " + phrase
        case .depth, .disparity, .matte: "a " + phrase
        }
    }
}

/// Apple's mattes, by the last part of their URN (`urn:com:apple:photo:2018:aux:portraiteffectsmatte`;
/// the semantic segmentation mattes are of 2019 (skin, hair, teeth) and 2020 (sky,
/// glasses), and the year is not part of the match).
package enum Matte: String, Sendable, Equatable, CaseIterable {
    case portrait = "portraiteffectsmatte"
    case skin = "semanticskinmatte"
    case hair = "semantichairmatte"
    case teeth = "semanticteethmatte"
    case sky = "semanticskymatte"
    case glasses = "semanticglassesmatte"

    static let applePrefix = "urn:com:apple:photo:"

    /// One word: `portrait`, `skin`, `hair`, `teeth`, `sky`, `glasses`.
    package var name: String { "\(self)" }
}
