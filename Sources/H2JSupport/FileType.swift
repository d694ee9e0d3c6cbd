#if canImport(Glibc)
import Glibc
#endif

/// A file's type as the `not-a-regular-file` message names it: only regular files are
/// read as sources, and the reason says what the path was instead.
package enum FileType {
    /// "a FIFO", "a socket", "a character device", …, from a `stat` mode.
    package static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symlink"
        default: "a file of unknown type"
        }
    }

    /// Whether `mode` is a regular file's.
    package static func isRegular(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }
}
