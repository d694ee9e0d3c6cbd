import CJPEGCodec
import H2JSupport

extension LibraryVersion {
    /// The loaded libjpeg-turbo's version ("2.1.5"): libjpeg-turbo 2.1 has no call for
    /// it, so `cjpegcodec_library_version` reads the version string the loaded library
    /// carries; "unknown" for a libjpeg without one.
    package static var libjpegTurbo: LibraryVersion {
        var text = [CChar](repeating: 0, count: 32)
        guard cjpegcodec_library_version(&text, text.count) == 0 else { return LibraryVersion("libjpeg-turbo", "unknown") }
        return LibraryVersion("libjpeg-turbo", cString: text)
    }
}
