#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// One inotify instance: watches on directories, and their events read without blocking.
final class Inotify {
    /// One event: the watch it came from, what happened, the rename's cookie, and the
    /// entry's name ("" for the watched directory itself).
    struct Event: Equatable {
        let watch: Int32
        let mask: UInt32
        let cookie: UInt32
        let name: String

        func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
        var isDirectory: Bool { has(IN_ISDIR) }
    }

    /// What each directory is watched for: files finished (`IN_CLOSE_WRITE`), moved in or
    /// out, created (a directory), written to or touched (a settling file), and the
    /// directory itself gone or moved. Symlinks are never followed.
    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_DELETE
                             | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    init() throws(SystemError) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw SystemError() }
    }

    deinit { close(fd) }

    /// Watches `directory`; ENOSPC when `fs.inotify.max_user_watches` is reached.
    func add(_ directory: String) -> Result<Int32, SystemError> {
        let watch = inotify_add_watch(fd, directory, Self.mask)
        return watch >= 0 ? .success(watch) : .failure(SystemError())
    }

    func remove(_ watch: Int32) {
        _ = inotify_rm_watch(fd, watch)
    }

    /// Every event queued now; none when there are none (the descriptor does not block).
    func read() -> [Event] {
        var events: [Event] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return events }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                // The kernel writes whole events: a 16-byte header, then `len` bytes of name.
                while offset + 16 <= count {
                    let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let end = min(count, offset + 16 + length)
                    let name = bytes[(offset + 16)..<end].prefix { $0 != 0 }
                    events.append(Event(watch: watch, mask: mask, cookie: cookie, name: PathBytes.string(name)))
                    offset = end
                }
            }
        }
    }

    /// `fs.inotify.max_user_watches` and `max_queued_events`, as the kernel reports them.
    static func limit(_ name: String) -> Int? {
        guard let bytes = POSIX.readFile("/proc/sys/fs/inotify/" + name) else { return nil }
        return Int(String(decoding: bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self))
    }
}
