#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// Every temp file the run has open, so that an interruption can remove them all.
///
/// Invariant: once `removeAllAndSeal` has run, no temp file can be created and no
/// rename can publish one; together with `rename(2)` being atomic this means an
/// interrupted run leaves either a complete output or nothing.
package final class TempFileRegistry: @unchecked Sendable {
    package static let shared = TempFileRegistry()

    private let lock = Lock()
    private var openTemps: Set<String> = []
    private var sealed = false
    private var counter = 0

    /// Temp names are hidden and recognisable: `.<name>.heic2jpg-<pid>-<n>.tmp`.
    static let marker = ".heic2jpg-"

    /// True for names this registry creates, so walkers can skip leftovers of a killed run.
    package static func isTempName(_ name: String) -> Bool {
        name.hasPrefix(".") && name.contains(marker) && name.hasSuffix(".tmp")
    }

    /// Creates and opens (O_EXCL, mode 0644) a temp file beside `target`.
    func create(besides target: String) throws(WriteError) -> (fd: Int32, path: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !sealed else { throw WriteError(path: target, reason: "interrupted") }
        counter += 1
        let directory = Path.parent(target)
        let name = "." + Path.lastComponent(target) + Self.marker + "\(getpid())-\(counter).tmp"
        let path = Path.join(directory, name)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: target, reason: POSIX.lastError()) }
        openTemps.insert(path)
        return (fd, path)
    }

    /// Renames `temp` to `target` unless the run has been interrupted.
    func publish(_ temp: String, as target: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard !sealed else { return "interrupted" }
        let failed = rename(temp, target) != 0
        let reason = failed ? POSIX.lastError() : nil
        if failed { unlink(temp) }
        openTemps.remove(temp)
        return reason
    }

    /// Removes a temp file after a failure.
    func discard(_ temp: String) {
        lock.lock()
        defer { lock.unlock() }
        unlink(temp)
        openTemps.remove(temp)
    }

    /// Removes every open temp file and refuses all further creates and renames.
    /// Called from the signal handler before the process exits.
    package func removeAllAndSeal() {
        lock.lock()
        sealed = true
        for path in openTemps { unlink(path) }
        openTemps.removeAll()
        lock.unlock()
    }
}
