import CDe265
import H2JSupport

extension LibraryVersion {
    /// The loaded libde265's version (`de265_get_version`: "1.0.11").
    package static var libde265: LibraryVersion { LibraryVersion("libde265", cString: de265_get_version()) }
}
