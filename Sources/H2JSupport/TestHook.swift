#if canImport(Glibc)
import Glibc
#endif

/// The one door for test hooks: environment variables that only a debug build reads,
/// which is what the tests run. A release build, and so the package, has none of them,
/// whatever is set (`Scripts/install-check` sets each and compares the outputs' bytes).
package enum TestHook: String, CaseIterable, Sendable {
    /// `POINT:DIR`: the parent stops at POINT for every source (`TestPause`).
    case pause = "HEIC2JPG_TEST_PAUSE"
    /// `ITEM`: a worker raises SIGSEGV as it starts decoding image item ITEM (`TestCrash`).
    case crash = "HEIC2JPG_TEST_CRASH"
    /// `invert`: every image's pixels are inverted in the pixel stage (`PixelStage`).
    case pixelOperation = "HEIC2JPG_TEST_PIXEL_OPERATION"
    /// Colon-separated file names that replace the libavcodec names tried (`AVCodecLibrary`).
    case avcodecNames = "H2J_AVCODEC_NAMES"
    /// `CASE`: every worker answers its jobs with crafted frames (`HostileWorker`).
    case hostileWorker = "HEIC2JPG_TEST_HOSTILE_WORKER"

    /// The hook's value when set, in a debug build; always nil in a release build.
    package var value: String? {
        #if DEBUG
        getenv(rawValue).map { PathBytes.string(cString: $0) }
        #else
        nil
        #endif
    }
}
