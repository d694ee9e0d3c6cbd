import Foundation

/// Files that are not regular, made inside a `TemporaryDirectory` for the tests of
/// `not-a-regular-file`: a FIFO, a bound socket, a symlink (to a device), a directory.
extension TemporaryDirectory {
    /// A FIFO at `relative` (no writer holds it, so a blocking open would wait forever).
    @discardableResult
    package func fifo(_ relative: String) -> String {
        let full = prepared(relative)
        precondition(mkfifo(full, 0o644) == 0, "cannot make a FIFO at \(full)")
        return full
    }

    /// A Unix socket bound at `relative` (the path must stay under 108 bytes); the
    /// socket's descriptor is closed again, which leaves the file in place.
    @discardableResult
    package func socket(_ relative: String) -> String {
        let full = prepared(relative)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "cannot make a socket")
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(full.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(full)")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(bound == 0, "cannot bind a socket at \(full)")
        return full
    }

    /// A symlink at `relative` to `target` (an absolute path, such as `/dev/zero`).
    @discardableResult
    package func symlink(_ relative: String, to target: String) -> String {
        let full = prepared(relative)
        precondition(Glibc.symlink(target, full) == 0, "cannot link \(full)")
        return full
    }

    /// A directory at `relative`, with its parents.
    @discardableResult
    package func directory(_ relative: String) -> String {
        let full = path + "/" + relative
        try? FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// The full path of `relative`, its parent directory created.
    private func prepared(_ relative: String) -> String {
        let full = path + "/" + relative
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return full
    }
}
