#if canImport(Glibc)
import Glibc
#endif
import H2JDigest
import H2JSupport

/// Removes an output heic2jpg published only while it is unchanged: still a regular
/// file at its path, holding the bytes whose SHA-256 was taken when it was written.
enum UnchangedOutput {
    enum Removal: Equatable {
        /// Nothing is at its path any more.
        case gone
        case removed
        /// Kept, and why.
        case kept(String)
    }

    /// Removes the file at `path` if its SHA-256 is `sha256` (and syncs its directory).
    static func remove(_ path: String, sha256: String?) -> Removal {
        guard let found = POSIX.fileInfo(path, followingLinks: false) else { return .gone }
        guard found.st_mode & S_IFMT == S_IFREG else { return .kept("it is no longer a regular file") }
        guard let sha256 else { return .kept("its SHA-256 was never recorded, so it cannot be told unchanged") }
        let digest: String
        do {
            let file = try SourceFile(path: path)
            guard file.info.st_dev == found.st_dev, file.info.st_ino == found.st_ino else { return .kept("it was replaced while it was read") }
            digest = try SourceDigest.hex(of: file.byteSource)
        } catch {
            return .kept("\(error)")
        }
        guard digest == sha256 else { return .kept("it was modified since heic2jpg wrote it (its SHA-256 is not the one recorded)") }
        // The very file hashed, still at its path, is the one removed.
        guard let now = POSIX.fileInfo(path, followingLinks: false), now.st_dev == found.st_dev, now.st_ino == found.st_ino
        else { return .kept("it was replaced while it was read") }
        guard POSIX.removeFile(path) == 0 else { return .kept("it cannot be removed: \(POSIX.lastError())") }
        POSIX.syncDirectory(Path.parent(path))
        return .removed
    }
}
