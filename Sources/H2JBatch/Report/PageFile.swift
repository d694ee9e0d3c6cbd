#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// Where an `--html` page goes: written as it is made under a temporary name beside its
/// path, and renamed onto the path only when whole, so a reader never sees half a page.
/// Like `--report`, the path may name nothing yet, an empty file or an earlier heic2jpg
/// page (`generator` within its first bytes), but never an input nor any other file:
/// `compare --html a.heic b.heic` must not write a page over a photo.
package final class PageFile {
    /// The line both pages carry near their start, by which an earlier page is known.
    package static let generator = "<meta name=\"generator\" content=\"heic2jpg\">"

    private let path: String
    private let temporary: String
    private var fd: Int32
    private var committed = false

    package init(path: String, inputs: [String]) throws(WriteError) {
        if let refusal = Self.refusal(path, inputs: inputs) { throw WriteError(path: path, reason: refusal) }
        self.path = path
        temporary = Path.join(Path.parent(path), ".\(Path.lastComponent(path)).heic2jpg-\(getpid()).tmp")
        fd = POSIX.openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError.system(path, "cannot create \(temporary)") }
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed { _ = POSIX.removeFile(temporary) }
    }

    package func write(_ text: String) throws(WriteError) {
        try POSIX.writeAll(Array(text.utf8), to: fd, path: temporary)
    }

    /// Renames the whole page onto its path.
    package func commit() throws(WriteError) {
        let closed = close(fd)
        fd = -1
        guard closed == 0 else { throw WriteError.system(temporary, "close") }
        guard POSIX.renameReplacing(temporary, path) == 0 else { throw WriteError.system(path, "rename") }
        committed = true
    }

    /// Why `path` must not be replaced by a page; nil when it may.
    static func refusal(_ path: String, inputs: [String]) -> String? {
        guard let info = POSIX.fileInfo(path) else { return nil }
        if ReportFileCheck.isInput(info, inputs) { return "the page '\(path)' is also an input; it would overwrite it" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "'\(path)' is not a regular file" }
        guard info.st_size > 0 else { return nil }
        guard let file = try? SourceFile(path: path), let head = try? file.prefix(512),
              String(decoding: head, as: UTF8.self).contains(generator) else {
            return "'\(path)' exists and is not a heic2jpg page; refusing to overwrite it"
        }
        return nil
    }
}
