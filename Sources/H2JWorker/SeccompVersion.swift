import CWorkerIPC
import H2JConvert
import H2JJob
import H2JSupport

extension LibraryVersion {
    /// The loaded libseccomp's version, which builds the worker sandbox's filter
    /// (`seccomp_version`: "2.5.4").
    package static var libseccomp: LibraryVersion {
        var major: UInt32 = 0, minor: UInt32 = 0, micro: UInt32 = 0
        h2j_seccomp_version(&major, &minor, &micro)
        return LibraryVersion("libseccomp", "\(major).\(minor).\(micro)")
    }
}
