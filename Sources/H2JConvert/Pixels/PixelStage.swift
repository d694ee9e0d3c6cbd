#if canImport(Glibc)
import Glibc
#endif
import H2JColour

/// The one place the pixel stage's steps are chosen: every image of every output (the
/// primary, other images, auxiliary images, gain maps) goes through this chain, so a new
/// step is added here once, from the options and what the image's pixels are (`colour`).
/// `--colorspace srgb` adds `SRGBConversion` for colour that is not sRGB already;
/// `HEIC2JPG_TEST_PIXEL_OPERATION=invert` adds `CodeMapping.inversion`, for the test that
/// shows every image kind passes here.
enum PixelStage {
    static func chain(for options: ConversionOptions, colour: ImageColour) -> PixelChain {
        var operations: [any PixelOperation] = []
        if options.colorspace == .srgb, case .colour(let profile?) = colour, !SRGBTransform.isSRGB(profile) {
            operations.append(SRGBConversion(profile: profile, sampling: options.sampling))
        }
        if testOperation == "invert" { operations.append(CodeMapping.inversion) }
        return PixelChain(operations: operations)
    }

    /// Read once per process (a worker reads it before its sandbox forbids nothing of it).
    private static let testOperation: String? = getenv("HEIC2JPG_TEST_PIXEL_OPERATION").map { String(cString: $0) }
}
