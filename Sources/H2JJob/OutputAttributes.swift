#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// What an output inherits from its source, so a private photo stays private and a
/// migrated archive keeps its owners:
/// - the times (access and modification, to the nanosecond);
/// - the permission bits, without execute (`0600` stays `0600`; `0755` becomes `0644`);
/// - run as root, the owner and group;
/// - each directory the publisher creates gets the bits (and, as root, the owner) of
///   the source directory at the same depth from the file, since outputs mirror the
///   input tree; a directory with no such source directory gets 0755.
/// Stdin has no attributes: its outputs get 0644 (less the umask) and the run's owner.
package struct OutputAttributes: Sendable {
    package let times: FileTimes
    /// Permission bits (setuid, setgid, sticky and execute removed).
    package let mode: mode_t
    package let owner: uid_t
    package let group: gid_t
    /// The source's directory, mirrored by the output's.
    package let sourceDirectory: String

    package init(times: FileTimes, mode: mode_t, owner: uid_t, group: gid_t, sourceDirectory: String) {
        self.times = times
        self.mode = mode
        self.owner = owner
        self.group = group
        self.sourceDirectory = sourceDirectory
    }

    package init(of source: SourceFile) {
        times = source.times
        mode = source.info.st_mode & 0o666
        owner = source.info.st_uid
        group = source.info.st_gid
        sourceDirectory = Path.parent(source.path)
    }

    /// Ownership is copied only by root: anyone else cannot give a file away.
    package static var copiesOwner: Bool { geteuid() == 0 }

    /// Applies the times, bits and (as root) owner to the open output `fd`.
    package func apply(to fd: Int32, path: String) throws(WriteError) {
        let values = [times.access, times.modification]
        guard futimens(fd, values) == 0 else { throw .system(path, "cannot set times") }
        guard fchmod(fd, mode) == 0 else { throw .system(path, "cannot set permissions") }
        if Self.copiesOwner { guard fchown(fd, owner, group) == 0 else { throw .system(path, "cannot set owner") } }
    }
}
