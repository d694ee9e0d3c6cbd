import CLCMS2
import H2JSupport
import Synchronization

/// 8-bit RGB pixels from a source's ICC profile to sRGB (`SRGBProfile`), by LittleCMS:
/// relative colorimetric intent with black-point compensation, what Photoshop's and
/// vips' "convert to sRGB" do. One transform per image; `apply` is called band by band
/// from one thread at a time.
package final class SRGBTransform: @unchecked Sendable {
    private let transform: cmsHTRANSFORM

    /// Throws when LittleCMS cannot read `profile` or it is not an RGB profile.
    package init(from profile: [UInt8]) throws(ColourConversionError) {
        guard let count = cmsUInt32Number(exactly: profile.count),
              let source = profile.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, count) }) else {
            throw ColourConversionError(reason: "LittleCMS cannot read the source's ICC profile (\(profile.count) bytes)")
        }
        defer { cmsCloseProfile(source) }
        guard let target = cmsCreate_sRGBProfile() else { throw ColourConversionError(reason: "LittleCMS cannot build sRGB") }
        defer { cmsCloseProfile(target) }
        guard let transform = cmsCreateTransform(source, h2j_type_rgb_8, target, h2j_type_rgb_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                 cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION)) else {
            throw ColourConversionError(reason: "the source's ICC profile (\(ICCProfileInfo(profile: profile).description ?? "no description")) "
                                        + "cannot be converted from as RGB")
        }
        self.transform = transform
    }

    deinit { cmsDeleteTransform(transform) }

    /// Converts `pixels` RGB pixels from `input` into `output` (which may be `input`).
    package func apply(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, pixels: Int) {
        guard let count = cmsUInt32Number(exactly: pixels), count > 0 else { return }
        cmsDoTransform(transform, input, output, count)
    }

    private static let known = Mutex<[[UInt8]: Bool]>([:])

    /// Whether `profile` describes sRGB: converting a 9×9×9 grid of colours through it
    /// moves none by more than one level (rounding), so converting would change nothing
    /// that shows. False for a profile LittleCMS cannot use. Cached per profile.
    package static func isSRGB(_ profile: [UInt8]) -> Bool {
        if let answer = known.withLock({ $0[profile] }) { return answer }
        let answer = measureSRGB(profile)
        known.withLock { $0[profile] = answer }
        return answer
    }

    private static func measureSRGB(_ profile: [UInt8]) -> Bool {
        guard let transform = try? SRGBTransform(from: profile) else { return false }
        let levels = (0..<9).map { UInt8(min(255, $0 * 32)) }
        var grid: [UInt8] = []
        for r in levels { for g in levels { for b in levels { grid += [r, g, b] } } }
        var converted = grid
        grid.withUnsafeBytes { input in
            converted.withUnsafeMutableBytes { transform.apply(input.baseAddress!, into: $0.baseAddress!, pixels: grid.count / 3) }
        }
        return zip(grid, converted).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}

/// A source's colours cannot be converted to sRGB (`--colorspace srgb`): its profile is
/// unreadable or not RGB.
package struct ColourConversionError: CodedError, CustomStringConvertible {
    package let reason: String
    package var code: ErrorCode { .unsupported }
    package init(reason: String) { self.reason = reason }
    package var description: String { "cannot convert to sRGB: \(reason)" }
}
