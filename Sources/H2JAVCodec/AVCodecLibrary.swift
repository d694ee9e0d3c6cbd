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
    /// hook that shows a machine without libavcodec (`H2J_AVCODEC_NAMES=none`).
    package static func load() -> String? {
        loadOutcome
    }

    private static let loadOutcome: String? = {
        let override = getenv("H2J_AVCODEC_NAMES").map { String(cString: $0) }
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
    /// The loaded libavcodec's version and FFmpeg's ("59.37.100 (FFmpeg 5.1.6-0+deb12u1,
    /// libavcodec.so.59)"), or "not loaded: <why>".
    package static var libavcodec: LibraryVersion {
        if let failure = AVCodecLibrary.load() { return LibraryVersion("libavcodec", "not loaded: " + failure) }
        let version = h2j_avc_version()
        let numbers = "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF)"
        let ffmpeg = h2j_avc_ffmpeg_version().map { String(cString: $0) } ?? "unknown"
        let soname = h2j_avc_soname().map { String(cString: $0) } ?? "libavcodec"
        return LibraryVersion("libavcodec", "\(numbers) (FFmpeg \(ffmpeg), \(soname))")
    }
}
