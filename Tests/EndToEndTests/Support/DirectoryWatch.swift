import Foundation

/// Waits for a file to be created in a directory (inotify), for tests that must act on
/// a run at one moment of its work: just after it created a temp file, before it could
/// publish it.
enum DirectoryWatch {
    /// The name of the first entry created in `directory` (which must exist) that
    /// `matches`, once created; nil when none is within `seconds`. `onCreate` runs at
    /// once, before this returns (to stop the run there).
    static func waitForCreation(in directory: String, within seconds: Double = 60, matching matches: (String) -> Bool,
                                onCreate: () -> Void) -> String? {
        let fd = inotify_init()
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE)) >= 0 else { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while Date() < deadline {
            var wait = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&wait, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let length = buffer[(offset + 12)..<(offset + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if matches(name) {
                    onCreate()
                    return name
                }
                offset += 16 + length
            }
        }
        return nil
    }

    /// Whether `name` is one of heic2jpg's temp files (`.heic2jpg-HOST-PID-N.tmp`).
    static func isTempName(_ name: String) -> Bool {
        name.hasPrefix(".heic2jpg-") && name.hasSuffix(".tmp")
    }
}
