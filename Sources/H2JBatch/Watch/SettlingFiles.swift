#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// Files written or moved in that a watch waits on: one is taken once its size, mtime and
/// ctime have stayed the same for the settle time since it was last seen to change. A file
/// written to (`IN_MODIFY`) is open for writing, so it waits for its next close whatever
/// its pauses. A file that goes away, or stops being a regular file, is dropped.
struct SettlingFiles {
    /// A file waiting: where it is, what `stat` last said, since when, and whether a
    /// writer holds it open (written to since its last close).
    struct File {
        let root: String
        let relativePath: String
        var seen: FileState
        var since: Double
        var beingWritten = false
    }

    /// What must hold still: size, mtime and ctime.
    struct FileState: Equatable {
        let size: Int
        let mtime: Int
        let ctime: Int

        init(_ info: stat) {
            size = Int(info.st_size)
            mtime = info.st_mtim.nanoseconds
            ctime = info.st_ctim.nanoseconds
        }
    }

    let settleSeconds: Double
    private var files: [String: File] = [:]

    init(settleSeconds: Double) {
        self.settleSeconds = settleSeconds
    }

    var count: Int { files.count }
    var isEmpty: Bool { files.isEmpty }

    /// `path` was written, closed or moved in: it waits (again) from `now`.
    mutating func touch(_ path: String, root: String, relativePath: String, now: Double) {
        guard let info = POSIX.fileInfo(path, followingLinks: false), FileType.isRegular(info.st_mode) else {
            files[path] = nil
            return
        }
        files[path] = File(root: root, relativePath: relativePath, seen: FileState(info), since: now)
    }

    /// `path` was walked and changed within the settle time: it waits like a touched file,
    /// unless a writer holds it open, when its close will bring it.
    mutating func found(_ path: String, root: String, relativePath: String, now: Double) {
        guard !isBeingWritten(path) else { return }
        touch(path, root: root, relativePath: relativePath, now: now)
    }

    /// `path` was written to: a writer holds it open, so it is not taken before it is
    /// closed (`touch`), however long the writer pauses.
    mutating func written(_ path: String, root: String, relativePath: String, now: Double) {
        if files[path] == nil {
            guard let info = POSIX.fileInfo(path, followingLinks: false), FileType.isRegular(info.st_mode) else { return }
            files[path] = File(root: root, relativePath: relativePath, seen: FileState(info), since: now)
        }
        files[path]?.since = now
        files[path]?.beingWritten = true
    }

    /// Whether a writer holds `path` open, as far as its events tell.
    func isBeingWritten(_ path: String) -> Bool { files[path]?.beingWritten ?? false }

    /// `path`'s attributes changed: its wait starts again, if it is waiting.
    mutating func changed(_ path: String, now: Double) {
        guard var file = files[path] else { return }
        file.since = now
        files[path] = file
    }

    /// Forgets `path`, and everything under it when it is a directory (moved out, removed).
    mutating func forget(_ path: String) {
        files[path] = nil
        let prefix = path.hasSuffix("/") ? path : path + "/"
        files = files.filter { !$0.key.hasPrefix(prefix) }
    }

    /// The files settled by `now`, each with its `stat`, taken out; a file whose state
    /// changed since last seen waits again from `now`.
    mutating func settled(now: Double) -> [(path: String, file: File, info: stat)] {
        var done: [(String, File, stat)] = []
        for (path, file) in files where !file.beingWritten && now - file.since >= settleSeconds {
            guard let info = POSIX.fileInfo(path, followingLinks: false), FileType.isRegular(info.st_mode) else {
                files[path] = nil
                continue
            }
            if FileState(info) == file.seen {
                files[path] = nil
                done.append((path, file, info))
            } else {
                files[path] = File(root: file.root, relativePath: file.relativePath, seen: FileState(info), since: now)
            }
        }
        return done.sorted { $0.0 < $1.0 }
    }

    /// When the next file may settle, nil when none waits.
    var nextDeadline: Double? {
        files.values.filter { !$0.beingWritten }.map { $0.since + settleSeconds }.min()
    }
}
