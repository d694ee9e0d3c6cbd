import CHeif
import H2JSupport

extension LibraryVersion {
    /// The loaded libheif's version (`heif_get_version`: "1.15.1").
    package static var libheif: LibraryVersion { LibraryVersion("libheif", cString: heif_get_version()) }
}
