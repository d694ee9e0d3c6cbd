#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// The directories of a watch's inputs, each with its inotify watch: new ones added as
/// they appear (trees moved in too), removed and moved-out ones dropped. Excluded
/// directories (`--exclude`, uploaders' temp names) and symlinks are never watched.
final class WatchedTree {
    /// A watched directory: its input and its path relative to that ("" for the input).
    struct Directory: Equatable {
        let root: String
        let relative: String
        var path: String { relative.isEmpty ? root : Path.join(root, relative) }
    }

    private let inotify: Inotify
    private let excludes: ExcludePatterns
    /// The output root, by device and inode, when it lies inside an input: never watched.
    private let skip: (dev_t, ino_t)?
    private var byWatch: [Int32: Directory] = [:]
    private var byPath: [String: Int32] = [:]
    /// The first directory that could not be watched because `max_user_watches` was
    /// reached, once that happened: the watch falls back to rescans.
    private(set) var limitReachedAt: String?
    /// Directories that could not be watched for another reason, with why, until taken.
    private var failures: [String] = []

    init(inotify: Inotify, excludes: ExcludePatterns, outputRoot: String?) {
        self.inotify = inotify
        self.excludes = excludes
        skip = outputRoot.flatMap { POSIX.fileInfo($0) }.map { ($0.st_dev, $0.st_ino) }
    }

    var count: Int { byWatch.count }

    func directory(of watch: Int32) -> Directory? { byWatch[watch] }

    /// Watches `directory` and every directory below it not excluded; returns the regular
    /// files found in the directories newly watched, each a (root, relative path): a tree
    /// that arrived whole gave no event for its files. With `rescanning`, directories
    /// already watched are looked into too, for ones whose events were lost.
    @discardableResult
    func add(_ directory: Directory, rescanning: Bool = false) -> [(root: String, relative: String)] {
        var files: [(String, String)] = []
        var stack = [directory]
        while let next = stack.popLast() {
            let known = byPath[next.path] != nil
            if known, !rescanning { continue }
            if !known { watch(next) }
            guard let names = try? POSIX.directoryNames(next.path) else { continue }
            for name in names.sorted() {
                let relative = next.relative.isEmpty ? name : Path.join(next.relative, name)
                guard excludes.match(name: name, relativePath: relative) == nil,
                      let info = POSIX.fileInfo(Path.join(next.path, name), followingLinks: false) else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if let skip, skip.0 == info.st_dev, skip.1 == info.st_ino { continue }
                    stack.append(Directory(root: next.root, relative: relative))
                case S_IFREG: if !known { files.append((next.root, relative)) }
                default: break
                }
            }
        }
        return files
    }

    /// Adds one directory's watch, noting a limit reached or another failure.
    private func watch(_ next: Directory) {
        switch inotify.add(next.path) {
        case .success(let watch):
            if let old = byWatch[watch], old.path != next.path { byPath[old.path] = nil }
            byWatch[watch] = next
            byPath[next.path] = watch
        case .failure(let error) where error.errno == ENOSPC:
            if limitReachedAt == nil { limitReachedAt = next.path }
        case .failure(let error):
            if error.errno != ENOENT, error.errno != ENOTDIR { failures.append("\(next.path): \(error)") }
        }
    }

    /// Drops `path` and every directory below it (removed, or moved out or away).
    func remove(_ path: String) {
        let prefix = path + "/"
        for (watched, watch) in byPath where watched == path || watched.hasPrefix(prefix) {
            inotify.remove(watch)
            byPath[watched] = nil
            byWatch[watch] = nil
        }
    }

    /// The kernel dropped `watch` (its directory is gone): forget it.
    func forget(_ watch: Int32) {
        guard let directory = byWatch.removeValue(forKey: watch) else { return }
        if byPath[directory.path] == watch { byPath[directory.path] = nil }
    }

    /// The directories that could not be watched since the last call, with why.
    func takeFailures() -> [String] {
        defer { failures.removeAll() }
        return failures
    }
}
