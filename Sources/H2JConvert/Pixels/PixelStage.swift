#if canImport(Glibc)
import Glibc
#endif
import H2JColour
import H2JJob
import H2JSupport

/// The one place the pixel stage's steps are chosen: every image of every output (the
/// primary, other images, auxiliary images, gain maps) goes through this chain, so a new
/// step is added here once, from the options, the image's role and size, and what its
/// pixels are (`colour`). `--max-size` adds a `Resize` to an image it makes smaller, then
/// `--colorspace srgb` adds `SRGBConversion` for colour that is not sRGB already (on the
/// fewer pixels); `--sampling 422`/`444` adds `ChromaUpsampling` last, so it sees the
/// planes the other steps make; `HEIC2JPG_TEST_PIXEL_OPERATION=invert` adds
/// `CodeMapping.inversion` in a debug build (`TestHook`), for the test that shows every
/// image kind passes here.
enum PixelStage {
    /// What an image is to its output, which decides the size it is encoded at.
    enum Role {
        /// The primary, another still image, a stereo view: fitted into `--max-size`'s box.
        case picture
        /// A gain map or an auxiliary image: scaled as the picture it belongs to, of this
        /// upright size, is scaled, so the two stay aligned (0×0: unknown, kept as it is).
        case scaledWith(width: Int, height: Int)
    }

    /// The chain of an image of upright size `width`×`height` in `role`, whose pixels are
    /// `colour` (data by default: gain maps and auxiliary images). Empty, as without
    /// options, for an image that keeps its size and colours.
    static func chain(for options: ConversionOptions, role: Role, colour: ImageColour = .data, width: Int, height: Int) -> PixelChain {
        var operations: [any PixelOperation] = []
        if let size = outputSize(options, role: role, width: width, height: height) {
            operations.append(Resize(width: size.width, height: size.height))
        }
        if options.colorspace == .srgb, case .colour(let profile?) = colour, !SRGBTransform.isSRGB(profile) {
            operations.append(SRGBConversion(profile: profile, sampling: options.sampling))
        }
        if testOperation == "invert" { operations.append(CodeMapping.inversion) }
        if case .picture = role, options.sampling != .s420 { operations.append(ChromaUpsampling(target: options.sampling)) }
        return PixelChain(operations: operations)
    }

    /// The size `--max-size` gives such an image; nil when it keeps its own (never larger).
    static func outputSize(_ options: ConversionOptions, role: Role, width: Int, height: Int) -> (width: Int, height: Int)? {
        guard let box = options.maxSize, width > 0, height > 0 else { return nil }
        switch role {
        case .picture:
            return box.fitting(width: width, height: height)
        case .scaledWith(let pictureWidth, let pictureHeight):
            guard let picture = box.fitting(width: pictureWidth, height: pictureHeight) else { return nil }
            func scaled(_ length: Int, _ to: Int, _ from: Int) -> Int { max(1, Int((Double(length) * Double(to) / Double(from)).rounded())) }
            let size = (width: scaled(width, picture.width, pictureWidth), height: scaled(height, picture.height, pictureHeight))
            return size.width < width || size.height < height ? size : nil
        }
    }

    /// Read once per process (a worker reads it before its sandbox forbids nothing of it).
    private static let testOperation: String? = TestHook.pixelOperation.value
}
