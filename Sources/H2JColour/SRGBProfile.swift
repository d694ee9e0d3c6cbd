import CLCMS2

/// The profile a `--colorspace srgb` output carries: LittleCMS's own sRGB
/// (`cmsCreate_sRGBProfile`: ICC v4, parametric curves, "sRGB built-in"), a few hundred
/// bytes where the usual v2 "sRGB IEC61966-2.1" takes 3 KB, with its header date fixed
/// (`ICCBytes`), so every output carries the same bytes.
package enum SRGBProfile {
    /// nil only if LittleCMS cannot build or save its sRGB profile.
    package static let bytes: [UInt8]? = {
        guard let profile = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(profile) }
        return ICCBytes.saved(profile)
    }()
}
