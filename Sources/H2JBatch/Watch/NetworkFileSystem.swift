import CFileSystemType

/// File systems whose changes made on other machines give no inotify events (NFS, SMB,
/// FUSE mounts such as sshfs, cluster file systems): a watch over one must rescan
/// (`--rescan`). Told by `statfs`'s `f_type`.
enum NetworkFileSystem {
    /// `statfs` magic numbers (linux/magic.h) of the file systems that need rescans.
    static let names: [Int64: String] = [
        0x6969: "NFS", 0x517B: "SMB", 0xFF53_4D42: "CIFS", 0xFE53_4D42: "SMB2", 0x6573_5546: "FUSE",
        0x00C3_6400: "Ceph", 0x0102_1997: "9P", 0x5346_414F: "AFS", 0x0116_1970: "GFS2", 0x7461_636F: "OCFS2",
        0x0BD0_0BD0: "Lustre",
    ]

    /// The name of the network file system holding `path`, nil for a local one (or one
    /// that cannot be asked).
    static func name(of path: String) -> String? {
        let magic = h2j_file_system_magic(path)
        return magic < 0 ? nil : names[magic]
    }
}
