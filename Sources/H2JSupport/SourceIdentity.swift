#if canImport(Glibc)
import Glibc
#endif

/// What makes a source the very file a conversion read, as one `fstat` saw it: device,
/// inode, size, and modification and change times to the nanosecond. The planner takes
/// it from the descriptor it sniffs through; the hand-off removes a source only while an
/// `fstat` of it still shows all five (a write, a `utimensat` or a rename since changes
/// the ctime, which no one but the kernel sets).
package struct SourceIdentity: Sendable, Equatable {
    package var device: Int
    package var inode: Int
    package var size: Int
    package var mtimeNanoseconds: Int
    package var ctimeNanoseconds: Int

    package init(device: Int, inode: Int, size: Int, mtimeNanoseconds: Int, ctimeNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.ctimeNanoseconds = ctimeNanoseconds
    }

    package init(_ info: stat) {
        self.init(device: Int(info.st_dev), inode: Int(info.st_ino), size: Int(info.st_size),
                  mtimeNanoseconds: info.st_mtim.nanoseconds, ctimeNanoseconds: info.st_ctim.nanoseconds)
    }

    /// The first of the five that differs in `other`, named, or nil when none does.
    package func difference(from other: SourceIdentity) -> String? {
        if other.device != device || other.inode != inode { return "another file is at its name (device \(other.device), inode \(other.inode); converted: \(device), \(inode))" }
        if other.size != size { return "its size is \(other.size), not the \(size) bytes converted" }
        if other.mtimeNanoseconds != mtimeNanoseconds { return "its modification time changed since it was converted" }
        if other.ctimeNanoseconds != ctimeNanoseconds { return "its change time (ctime) moved since it was converted: it was written to or touched" }
        return nil
    }
}
