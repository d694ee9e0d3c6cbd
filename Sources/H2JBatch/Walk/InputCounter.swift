#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import H2JContainer
import H2JJob
import H2JSupport

/// Counts, on a background thread, the files named like HEIF under the inputs, so the
/// progress line has a total on a first run, long before the walk (which waits for the
/// worker pool) has seen every file. Only names are read (`readdir`, its `d_type`), never
/// a file's status, so the count costs a small part of a walk. It is an estimate, and
/// shown as one: content is sniffed only by the walk (a HEIF named `.jpg` converts too,
/// and a `.heic` that holds no image fails). Symlinked directories are not entered, as
/// the walk does not enter them; neither is the output root.
enum InputCounter {
    /// Starts counting `inputs` (files count themselves); `found` hears the count once.
    static func start(_ inputs: [String], skipping outputRoot: String?, found: @escaping @Sendable (Int) -> Void) {
        let skip = outputRoot.flatMap { POSIX.fileInfo($0) }.map { ($0.st_dev, $0.st_ino) }
        DispatchQueue.global(qos: .utility).async {
            var count = 0
            for input in inputs {
                guard let info = POSIX.fileInfo(input) else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    count += countNamedLikeHEIF(in: input, skipping: skip)
                } else {
                    count += 1
                }
            }
            found(count)
        }
    }

    /// Files named like HEIF below `directory`, depth first with one listing per level.
    private static func countNamedLikeHEIF(in directory: String, skipping skip: (dev_t, ino_t)?) -> Int {
        var count = 0
        var pending = [directory]
        while let next = pending.popLast() {
            guard let entries = try? POSIX.directoryEntries(next) else { continue }
            for entry in entries {
                let path = Path.join(next, entry.name)
                var type = entry.type
                if type == .unknown, let info = POSIX.fileInfo(path, followingLinks: false) {
                    type = info.st_mode & S_IFMT == S_IFDIR ? .directory : info.st_mode & S_IFMT == S_IFREG ? .file : .other
                }
                switch type {
                case .directory:
                    if let skip, let info = POSIX.fileInfo(path), info.st_dev == skip.0, info.st_ino == skip.1 { continue }
                    pending.append(path)
                case .file where HEIFExtensions.matches(entry.name): count += 1
                default: break
                }
            }
        }
        return count
    }
}
