#if canImport(Glibc)
import Glibc
#endif

/// The one place the pixel stage's steps are chosen: every image of every output (the
/// primary, other images, auxiliary images, gain maps) goes through this chain, so a new
/// step is added here once. `--sampling 422`/`444` adds `ChromaUpsampling` last, so it
/// sees the planes the other steps make; `HEIC2JPG_TEST_PIXEL_OPERATION=invert` adds
/// `CodeMapping.inversion`, for the test that shows every image kind passes here.
enum PixelStage {
    static func chain(for options: ConversionOptions) -> PixelChain {
        var operations: [any PixelOperation] = []
        if testOperation == "invert" { operations.append(CodeMapping.inversion) }
        if options.sampling != .s420 { operations.append(ChromaUpsampling(target: options.sampling)) }
        return PixelChain(operations: operations)
    }

    /// Read once per process (a worker reads it before its sandbox forbids nothing of it).
    private static let testOperation: String? = getenv("HEIC2JPG_TEST_PIXEL_OPERATION").map { String(cString: $0) }
}
