#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JDigest
import H2JSupport

/// A source proved, just before its hand-off, to be the very file its conversion read,
/// and the removal of exactly that inode (ARCHITECTURE.md, "The verified hand-off").
///
/// Proved means: opened without following a link and without blocking, a regular file
/// whose device, inode, size, mtime and ctime (`fstat`) are those the conversion saw, and
/// whose bytes hash to the SHA-256 recorded for the bytes converted, with the ctime still
/// unmoved after hashing. Removing means: rename the name to a private one beside it
/// (never replacing), check that the renamed file is still the proved inode, and only then
/// unlink (or move) it; a file that is not is renamed back. No other file at the name can
/// be removed at any moment.
final class ProvedSource {
    let path: String
    private let fd: Int32
    private let identity: SourceIdentity

    private init(path: String, fd: Int32, identity: SourceIdentity) {
        self.path = path
        self.fd = fd
        self.identity = identity
    }

    deinit { close(fd) }

    /// The file at `path`, proved to be the one converted (`converted`, hashing to
    /// `sha256`). Throws `SourceChanged` when it is not, `HandOffRefusal` when it cannot be
    /// looked at.
    static func prove(_ path: String, converted: SourceIdentity, sha256: String) throws -> ProvedSource {
        let fd = POSIX.openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            // A source reached through a link (or a link put at its name) is never handed off: the link is not the photo.
            if errno == ELOOP { throw HandOffRefusal(description: "a symbolic link is at its name; only a file itself is handed off") }
            if errno == ENOENT { throw SourceChanged(reason: "it is gone from its name") }
            throw HandOffRefusal(description: "cannot open it: \(POSIX.lastError())")
        }
        let source = ProvedSource(path: path, fd: fd, identity: converted)
        let seen = try source.currentIdentity()
        if let difference = converted.difference(from: seen) { throw SourceChanged(reason: difference) }
        let digest: String
        do {
            digest = try SourceDigest.hex(of: FileByteSource(fd: fd, size: seen.size))
        } catch {
            throw HandOffRefusal(description: "cannot read it again for its SHA-256: \(error)")
        }
        guard digest == sha256 else {
            throw SourceChanged(reason: "its SHA-256 is \(digest), not the \(sha256) of the bytes converted")
        }
        if let difference = converted.difference(from: try source.currentIdentity()) {
            throw SourceChanged(reason: "it changed while it was hashed: \(difference)")
        }
        return source
    }

    /// `--delete-source`: unlinks the proved inode.
    func delete() throws {
        let hidden = try hide()
        try checkUnchanged(since: hidden)
        guard POSIX.removeFile(hidden.path) == 0 else {
            let reason = POSIX.lastError()
            putBack(hidden.path)
            throw HandOffRefusal(description: "cannot delete it: \(reason)")
        }
    }

    /// `--move-source`: moves the proved inode to `target` (never replacing a file there);
    /// onto another file system (EXDEV) as `mv` does: copied, fsynced, verified by its
    /// SHA-256, and only then the original unlinked.
    func move(to target: String, sha256: String) throws {
        // Refused before hiding, which moves the source's ctime (a later proof would call it changed).
        if POSIX.fileInfo(target, followingLinks: false) != nil {
            throw HandOffRefusal(description: "cannot move it to \(target): \(POSIX.describe(EEXIST))")
        }
        let hidden = try hide()
        let code = POSIX.renameNoReplace(hidden.path, target)
        if code == 0 { return }
        guard code == EXDEV else {
            putBack(hidden.path)
            throw HandOffRefusal(description: "cannot move it to \(target): \(POSIX.describe(code))")
        }
        do {
            try copy(to: target, sha256: sha256)
        } catch {
            putBack(hidden.path)
            throw error
        }
        do {
            try checkUnchanged(since: hidden)
        } catch {
            // The copy holds the bytes converted, which the outputs carry: the newer original stays.
            _ = POSIX.removeFile(target)
            throw error
        }
        guard POSIX.removeFile(hidden.path) == 0 else {
            let reason = POSIX.lastError()
            putBack(hidden.path)
            throw HandOffRefusal(description: "copied to \(target), but cannot delete the original: \(reason); both are kept")
        }
    }

    /// The source renamed to a private name beside it, after which that name holds the
    /// proved inode (or the source is renamed back and this throws), with the ctime the
    /// rename gave it.
    private func hide() throws -> (path: String, ctime: Int) {
        let hidden = Path.join(Path.parent(path), Self.privateName(Path.lastComponent(path)))
        let code = POSIX.renameNoReplace(path, hidden)
        guard code == 0 else { throw HandOffRefusal(description: "cannot rename it to \(hidden): \(POSIX.describe(code))") }
        do {
            guard let info = POSIX.fileInfo(hidden, followingLinks: false),
                  Int(info.st_dev) == identity.device, Int(info.st_ino) == identity.inode else {
                throw SourceChanged(reason: "another file took its name during the hand-off")
            }
            let now = try currentIdentity()
            guard now.size == identity.size, now.mtimeNanoseconds == identity.mtimeNanoseconds else {
                throw SourceChanged(reason: "it was written to during the hand-off")
            }
            return (hidden, now.ctimeNanoseconds)
        } catch {
            putBack(hidden)
            throw error
        }
    }

    /// Throws (the source renamed back) when the file was written to or touched since `hide`.
    private func checkUnchanged(since hidden: (path: String, ctime: Int)) throws {
        do {
            guard try currentIdentity().ctimeNanoseconds == hidden.ctime else {
                throw SourceChanged(reason: "it was written to during the hand-off")
            }
        } catch {
            putBack(hidden.path)
            throw error
        }
    }

    /// Renames the hidden source back to its name, never replacing a file that came there
    /// meanwhile (it then stays at the private name, where the next walk finds it).
    private func putBack(_ hidden: String) {
        _ = POSIX.renameNoReplace(hidden, path)
    }

    /// Copies the proved file to `target` through a temp file beside it: times, bits and
    /// (as root) owner kept, fsynced, its SHA-256 checked against `sha256`, then renamed
    /// into place without replacing anything and its directory fsynced.
    private func copy(to target: String, sha256: String) throws {
        let temp = Path.join(Path.parent(target), TempFileName.make(identity.inode))
        let out = POSIX.openFile(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw HandOffRefusal(description: "cannot create \(temp): \(POSIX.lastError())") }
        var published = false
        defer {
            close(out)
            if !published { _ = POSIX.removeFile(temp) }
        }
        let input = FileByteSource(fd: fd, size: identity.size)
        var offset = 0
        while offset < identity.size {
            let chunk = try input.read(at: offset, count: min(1 << 20, identity.size - offset))
            try POSIX.writeAll(chunk, to: out, path: temp)
            offset += chunk.count
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw HandOffRefusal(description: "cannot stat it: \(POSIX.lastError())") }
        // The owner first: a chown clears the set-id bits the chmod then gives back.
        guard geteuid() != 0 || fchown(out, info.st_uid, info.st_gid) == 0, fchmod(out, info.st_mode & 0o7777) == 0,
              futimens(out, [info.st_atim, info.st_mtim]) == 0 else {
            throw HandOffRefusal(description: "cannot give \(temp) the original's times, bits and owner: \(POSIX.lastError())")
        }
        guard fsync(out) == 0 else { throw HandOffRefusal(description: "cannot fsync \(temp): \(POSIX.lastError())") }
        let copied = try SourceDigest.hex(of: FileByteSource(fd: out, size: identity.size))
        guard copied == sha256 else {
            throw HandOffRefusal(description: "its copy \(temp) hashes to \(copied), not \(sha256)")
        }
        let code = POSIX.renameNoReplace(temp, target)
        guard code == 0 else { throw HandOffRefusal(description: "cannot move it to \(target): \(POSIX.describe(code))") }
        published = true
        POSIX.syncDirectory(Path.parent(target))
    }

    private func currentIdentity() throws -> SourceIdentity {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw HandOffRefusal(description: "cannot stat it: \(POSIX.lastError())") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw HandOffRefusal(description: "it is not a regular file now") }
        return SourceIdentity(info)
    }

    /// `.heic2jpg-handoff-PID-NAME`: the name's own extension kept, so a run killed in
    /// the moment the source has it leaves a file the next walk finds and converts.
    static func privateName(_ name: String) -> String {
        let full = ".heic2jpg-handoff-\(getpid())-" + name
        guard PathBytes.bytes(full).count > 255 else { return full }
        return ".heic2jpg-handoff-\(getpid())" + String(name.unicodeScalars.dropFirst(Path.stem(name).unicodeScalars.count))
    }
}

/// The hand-off found the file at a source's name is not the one converted (replaced,
/// rewritten, touched): it is kept, reported `source-changed`, and converted again.
struct SourceChanged: Error, CustomStringConvertible {
    let reason: String

    var description: String { "source-changed: it is not the file that was converted: \(reason)" }
}

/// Why a hand-off did not happen, in words.
struct HandOffRefusal: Error, CustomStringConvertible {
    let description: String
}
