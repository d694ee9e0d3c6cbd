#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// systemd's readiness protocol (`Type=notify`) without libsystemd: a datagram such as
/// `READY=1` to the socket `$NOTIFY_SOCKET` names (an abstract one when it starts with
/// `@`). Nothing when the variable is unset, as outside systemd.
package enum ServiceNotification {
    /// Sends `state` (`READY=1`, `STOPPING=1`, `STATUS=…`); false when it could not be sent.
    @discardableResult
    package static func send(_ state: String) -> Bool {
        guard let socketPath = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !socketPath.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sockaddr, length) }
            }
        }
        return sent == message.count
    }
}
