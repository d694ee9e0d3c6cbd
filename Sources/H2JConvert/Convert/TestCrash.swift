#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// Test only (`ImageCrashEndToEndTests`): `HEIC2JPG_TEST_CRASH=ITEM` (or a stage's name,
/// for a stage that is for no image item: `gain-map`, `pixels`) makes the worker
/// die of SIGSEGV as it starts decoding image item ITEM for an output that does not hold
/// the primary, as a decoder crash would, so the tests of a lost image need no file that
/// crashes a library (the overlay sample did, until heic2jpg composed overlays itself).
/// Unset, and in a release build (`TestHook`), nothing happens.
package enum TestCrash {
    /// The hook's value, read once per process.
    private static let setting = TestHook.crash.value
    private static let item: UInt32? = setting.flatMap { UInt32($0) }

    /// Dies when `image` is the item the test named.
    static func reach(decoding image: UInt32?) {
        guard let item, image == item else { return }
        raise(SIGSEGV)
    }

    /// Dies on entering `stage` when the test named it (`HEIC2JPG_TEST_CRASH=gain-map`, `pixels`).
    static func reach(_ stage: PipelineError.Stage) {
        guard setting == stage.rawValue else { return }
        raise(SIGSEGV)
    }
}
