import CBrotli
import H2JSupport

extension LibraryVersion {
    /// The loaded Brotli decoder's version: `BrotliDecoderVersion` packs it as
    /// major << 24 | minor << 12 | patch.
    package static var brotli: LibraryVersion {
        let packed = BrotliDecoderVersion()
        return LibraryVersion("Brotli", "\(packed >> 24).\(packed >> 12 & 0xFFF).\(packed & 0xFFF)")
    }
}
