import CLCMS2
import Synchronization
import H2JContainer

/// ICC profiles for sources that describe their colour only as nclx (code points for
/// primaries and transfer). JPEG has no nclx: without a profile, viewers take the pixels
/// for sRGB, and a Display P3 or BT.2020 photo loses its saturation.
///
/// Profiles are built by LittleCMS from the H.273 chromaticities and transfer curves
/// (never hand-written bytes): ICC v4 with parametric curves, about 700 bytes, the form
/// of Apple's own Display P3 profile (v2 would need 8 KB sampled curves per channel),
/// with a description that names the colour space. The header date is fixed
/// (`ICCBytes`) so that the same source always gives the same bytes. Built once per code
/// pair, then cached.
///
/// Decisions:
/// - BT.709/sRGB primaries with the sRGB transfer (or an unspecified one) get no profile:
///   an untagged JPEG already means sRGB, and that keeps such outputs as they were.
/// - An unspecified transfer is read as sRGB's, as phones write it.
/// - Unspecified primaries, and PQ or HLG transfers, get no profile: the first says
///   nothing, and an SDR JPEG cannot carry the others' meaning.
package enum ICCFromNCLX {
    private static let cache = Mutex<[Int: [UInt8]?]>([:])

    /// The profile for `nclx`, or nil when none is due (see the decisions above).
    package static func profile(for nclx: NCLX) -> [UInt8]? {
        let key = nclx.primaries << 16 | nclx.transfer
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let built = build(primaries: nclx.primaries, transfer: nclx.transfer)
        cache.withLock { $0[key] = built }
        return built
    }

    /// Names used in the profile description.
    package static func primariesName(_ code: Int) -> String {
        switch code {
        case 1: return "BT.709"
        case 4: return "BT.470 M"
        case 5: return "BT.601 625"
        case 6: return "BT.601 525"
        case 7: return "SMPTE 240M"
        case 8: return "Generic film"
        case 9: return "BT.2020"
        case 10: return "CIE XYZ"
        case 11: return "DCI-P3"
        case 12: return "Display P3"
        case 22: return "EBU 3213"
        default: return "primaries \(code)"
        }
    }

    /// A LittleCMS parametric curve (type and parameters) for a transfer code, or nil.
    static func curve(_ transfer: Int) -> (type: Int32, parameters: [Double], name: String)? {
        switch transfer {
        case 2, 13: // sRGB (IEC 61966-2-1); unspecified is read as sRGB
            return (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045], "sRGB transfer")
        case 1, 6, 14, 15: // BT.709 / BT.601 / BT.2020 camera curve, inverted
            return (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081], "BT.709 transfer")
        case 4: return (1, [2.2], "gamma 2.2")
        case 5: return (1, [2.8], "gamma 2.8")
        case 8: return (1, [1.0], "linear")
        default: return nil
        }
    }

    private static func build(primaries code: Int, transfer: Int) -> [UInt8]? {
        guard let primaries = ColourPrimaries(code: code), let curve = curve(transfer) else { return nil }
        if code == 1 && (transfer == 13 || transfer == 2) { return nil }
        var white = cmsCIExyY(x: primaries.white.x, y: primaries.white.y, Y: 1)
        var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: primaries.red.x, y: primaries.red.y, Y: 1),
                                     Green: cmsCIExyY(x: primaries.green.x, y: primaries.green.y, Y: 1),
                                     Blue: cmsCIExyY(x: primaries.blue.x, y: primaries.blue.y, Y: 1))
        guard let tone = curve.parameters.withUnsafeBufferPointer({ cmsBuildParametricToneCurve(nil, curve.type, $0.baseAddress) })
        else { return nil }
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let profile = curves.withUnsafeMutableBufferPointer({ cmsCreateRGBProfile(&white, &triple, $0.baseAddress) })
        else { return nil }
        defer { cmsCloseProfile(profile) }
        let description = "\(primariesName(code)), \(curve.name) (heic2jpg, from nclx \(code)/\(transfer))"
        for (signature, text) in [(cmsSigProfileDescriptionTag, description), (cmsSigCopyrightTag, "No copyright, use freely")] {
            guard let mlu = cmsMLUalloc(nil, 1) else { return nil }
            defer { cmsMLUfree(mlu) }
            guard cmsMLUsetASCII(mlu, "en", "US", text) != 0, cmsWriteTag(profile, signature, UnsafeRawPointer(mlu)) != 0 else { return nil }
        }
        return ICCBytes.saved(profile)
    }
}
