#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// Writes a file so that it appears complete or not at all: temp file in the target
/// directory, `fsync`, source times copied, `rename`, directory `fsync`.
enum AtomicFileWriter {
    /// Runs `body` on a temp file's descriptor, then `beforePublish` (which may still
    /// veto by throwing), then publishes it as `target`. Returns the number of bytes
    /// written. On any error the temp file is removed.
    static func write(to target: String, times: FileTimes?,
                      registry: TempFileRegistry = .shared,
                      _ body: (Int32) throws -> Void, beforePublish: () throws -> Void = {}) throws -> Int {
        let directory = Path.parent(target)
        try makeDirectories(directory)
        let temp = try registry.create(besides: target)
        var closed = false
        defer { if !closed { close(temp.fd) } }
        do {
            try body(temp.fd)
            guard fsync(temp.fd) == 0 else { throw WriteError(path: target, reason: "fsync: \(POSIX.lastError())") }
            if let times {
                let values = [times.access, times.modification]
                guard futimens(temp.fd, values) == 0 else { throw WriteError(path: target, reason: "cannot set times: \(POSIX.lastError())") }
            }
            var info = stat()
            fstat(temp.fd, &info)
            closed = true
            guard close(temp.fd) == 0 else { throw WriteError(path: target, reason: "close: \(POSIX.lastError())") }
            try beforePublish()
            if let reason = registry.publish(temp.path, as: target) { throw WriteError(path: target, reason: reason) }
            syncDirectory(directory)
            return Int(info.st_size)
        } catch {
            registry.discard(temp.path)
            throw error
        }
    }

    /// `mkdir -p`: creates missing parents with mode 0755.
    static func makeDirectories(_ path: String) throws(WriteError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: path, reason: "exists and is not a directory") }
            return
        }
        let parent = Path.parent(path)
        if parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw WriteError(path: path, reason: "cannot create directory: \(POSIX.lastError())")
        }
    }

    /// Makes the rename durable; failures are harmless (the data itself is synced).
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
