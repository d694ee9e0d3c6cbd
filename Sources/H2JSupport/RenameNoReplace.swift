#if canImport(Glibc)
import Glibc
#endif

extension POSIX {
    /// `renameat2(RENAME_NOREPLACE)`, which Glibc declares only under `_GNU_SOURCE` (so
    /// Swift's Glibc module does not see it): looked up once, nil on a C library without it.
    private static let renameat2: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// Linux's RENAME_NOREPLACE flag (linux/fs.h).
    private static let renameNoReplaceFlag: UInt32 = 1

    /// Moves `from` to `to` only if nothing is at `to`, atomically: a file that appears
    /// there at any moment is never replaced. Returns 0, or the errno: EEXIST when
    /// something is at `to`.
    ///
    /// `renameat2(RENAME_NOREPLACE)` where the file system has it (ext4, xfs, btrfs,
    /// tmpfs, f2fs, …); otherwise `link` then `unlink`, which is just as exclusive (`link`
    /// never replaces) on file systems with hard links. On one with neither (some FUSE
    /// and network file systems) the last resort checks with `lstat` and renames, and a
    /// file created between the two calls could be replaced: that window is documented.
    package static func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        if let renameat2 {
            let code = at(from, failure: -1) { fromDirectory, fromName in
                at(to, failure: -1) { renameat2(fromDirectory, fromName, $0, $1, renameNoReplaceFlag) }
            }
            if code == 0 { return 0 }
            guard errno == EINVAL || errno == ENOSYS else { return errno }
        }
        if hardLink(from, to) == 0 {
            _ = removeFile(from)
            return 0
        }
        guard errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == EXDEV else { return errno }
        if fileInfo(to, followingLinks: false) != nil { return EEXIST }
        return renameReplacing(from, to) == 0 ? 0 : errno
    }
}
