#if canImport(Glibc)
import Glibc
#endif
import CAVCodecShim
import H2JSupport

/// libavcodec as this process loaded it, or why it could not: `CAVCodecShim` dlopens the
/// newest of `libavcodec.so.61`, `.60`, `.59` once per process, so heic2jpg builds and
/// runs without it.
package enum AVCodecLibrary {
    /// Loads libavcodec (once; later calls return the first outcome). nil when it loaded,
    /// else why not. A worker calls it before its sandbox closes, since dlopen opens files.
    ///
    /// `H2J_AVCODEC_NAMES` (colon-separated file names) replaces the list tried: a test
    /// hook, debug builds only (`TestHook`), that shows a machine without libavcodec.
    package static func load() -> String? {
        loadOutcome
    }

    private static let loadOutcome: String? = {
        let override = TestHook.avcodecNames.value
        let status: Int32
        if let override {
            let names = override.split(separator: ":").map { strdup(String($0)) } + [nil]
            status = names.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { h2j_avc_load($0.baseAddress) }
            }
        } else {
            status = h2j_avc_load(nil)
        }
        return status == 0 ? nil : String(cString: h2j_avc_load_error())
    }()

    /// True when libavcodec loaded.
    package static var isAvailable: Bool { load() == nil }
}

extension LibraryVersion {
    /// The loaded libavcodec's FFmpeg release ("5.1.9" of `av_version_info`'s
    /// "5.1.9-0+deb12u1", the version of the Debian package), else libavcodec's own
    /// ("59.37.100"); or "not loaded: <why>".
    package static var libavcodec: LibraryVersion {
        if let failure = AVCodecLibrary.load() { return LibraryVersion("libavcodec", "not loaded: " + failure) }
        let release = h2j_avc_ffmpeg_version().map { String(cString: $0).prefix { $0.isNumber || $0 == "." } } ?? ""
        if release.split(separator: ".").count >= 2, release.first?.isNumber == true, release.last?.isNumber == true {
            return LibraryVersion("libavcodec", String(release))
        }
        let version = h2j_avc_version()
        return LibraryVersion("libavcodec", "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF)")
    }
}
