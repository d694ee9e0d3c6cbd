#if canImport(Glibc)
import Glibc
#endif
import H2JSupport

/// Where an `--html` page goes: written as it is made under a temp name beside its path
/// (`TempFileName`'s, so walkers pass it over and the leftover of a killed writer is
/// removed by the next page or run there), and renamed onto the path only when whole, so
/// a reader never sees half a page.
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
        let directory = Path.parent(path)
        _ = TempFileName.removeOrphans((try? POSIX.directoryEntries(directory))?.map(\.name) ?? [], in: directory)
        // Counter 0 is the page's: the publisher counts from 1, and a process writes one page.
        temporary = Path.join(directory, TempFileName.make(0))
        fd = Self.create(temporary)
        guard fd >= 0 else { throw WriteError.system(path, "cannot create \(temporary)") }
    }

    /// Creates `temporary` anew. A file already there is a leftover of an earlier process
    /// with this one's PID (each process writes one page), so it is replaced.
    private static func create(_ temporary: String) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = POSIX.openFile(temporary, flags, 0o644)
        guard fd < 0, errno == EEXIST, POSIX.removeFile(temporary) == 0 else { return fd }
        return POSIX.openFile(temporary, flags, 0o644)
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
