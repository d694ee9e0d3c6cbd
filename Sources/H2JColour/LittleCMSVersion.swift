import CLCMS2
import H2JSupport

extension LibraryVersion {
    /// The loaded LittleCMS's version: `cmsGetEncodedCMMversion` gives 2140 for "2.14"
    /// (major × 1000 + minor × 10).
    package static var littleCMS: LibraryVersion {
        let encoded = Int(cmsGetEncodedCMMversion())
        return LibraryVersion("LittleCMS", "\(encoded / 1000).\(encoded % 1000 / 10)")
    }
}
