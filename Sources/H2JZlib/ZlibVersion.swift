import CZlib
import H2JSupport

extension LibraryVersion {
    /// The loaded zlib's version (`zlibVersion`: "1.2.13").
    package static var zlib: LibraryVersion { LibraryVersion("zlib", cString: zlibVersion()) }
}
