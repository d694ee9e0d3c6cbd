import Foundation

/// The test's side of systemd's `NOTIFY_SOCKET`: a datagram socket bound at a path,
/// whose messages (`READY=1`, `STOPPING=1`) the test waits for.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(_ path: String) throws {
        self.path = path
        unlink(path)  // a socket bound here before, by an earlier start
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
    }

    deinit { close(fd) }

    /// The next message, waiting at most `seconds`; nil when none came.
    func next(within seconds: Double) -> String? {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Waits for a message holding `line` (such as `READY=1`); false when none came in time.
    func wait(for line: String, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let message = next(within: deadline.timeIntervalSinceNow), message.split(separator: "\n").contains(Substring(line)) {
                return true
            }
        }
        return false
    }
}
