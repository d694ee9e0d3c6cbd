#if canImport(Glibc)
import Glibc
#endif

/// Why an input failed, as a stable token for machines: the report's `errorCode` and,
/// later, the state database. The `reason` beside it is for people and may be reworded;
/// these tokens are not (docs/output.md lists them).
package enum ErrorCode: String, Sendable, CaseIterable {
    /// The input could not be opened, listed or read (permissions, I/O error, vanished).
    case sourceUnreadable = "source-unreadable"
    /// The input is not a regular file (a FIFO, a socket, a device, a directory where a
    /// file was expected): it is never opened in a way that could block, nor read; the
    /// reason names its type.
    case notARegularFile = "not-a-regular-file"
    /// The content is not HEIF (nor JPEG under a HEIF name).
    case notHEIF = "not-heif"
    /// The file ends before its boxes or item data do: cut short.
    case truncated
    /// Boxes or items that contradict the format (missing, malformed, dangling).
    case corruptContainer = "corrupt-container"
    /// Valid HEIF stored in a way this tool does not follow.
    case unsupported
    /// More pixels, bytes or items than the limits allow (decompression bombs).
    case limitExceeded = "limit-exceeded"
    /// The image data did not decode (libheif, or an HEVC tile).
    case decodeFailed = "decode-failed"
    /// JPEG content (under a HEIF name) that does not decode cleanly.
    case corruptJPEG = "corrupt-jpeg"
    /// The decoder process died on this file (a signal, an exit): the reason names the
    /// signal, the library it was in and the last line it wrote.
    case decoderCrashed = "decoder-crashed"
    /// The decoder process reached `--max-memory` on this file.
    case outOfMemory = "out-of-memory"
    /// The file took longer than `--timeout`; its decoder was stopped.
    case timedOut = "timed-out"
    /// libjpeg could not encode the output.
    case encodeFailed = "encode-failed"
    /// The output could not be written (other than a full disk).
    case writeFailed = "write-failed"
    /// The file system is full (ENOSPC) or the quota is reached (EDQUOT). The run stops
    /// starting files and exits 75.
    case diskFull = "disk-full"
    /// Another resource ran out: the file size limit (EFBIG), a read-only file system
    /// (EROFS), descriptors (EMFILE, ENFILE), processes or memory for a decoder (EAGAIN,
    /// ENOMEM). The run stops starting files and exits 75.
    case outOfResources = "out-of-resources"
    /// The run was interrupted before this output was published.
    case interrupted
    /// Another input of the run has, or had first claim on, the same output path.
    case outputCollision = "output-collision"
    /// The output path is the source itself.
    case outputIsSource = "output-is-source"
    /// The output path is a directory.
    case outputIsDirectory = "output-is-directory"
    /// The output path holds HEIF data, which may be a source: never overwritten.
    case outputHoldsHEIF = "output-holds-heif"
    /// A file heic2jpg did not write for this source is at the output path (found when
    /// planning, or appeared before publishing): never overwritten.
    case outputNotOurs = "output-not-ours"
    /// The `--report` file could not be opened.
    case reportUnwritable = "report-unwritable"
    /// The `--state` database could not be opened (or is from a newer heic2jpg). A full
    /// or read-only disk under it is `disk-full` or `out-of-resources` instead.
    case stateUnusable = "state-unusable"
    /// An error that carries no code (not a `CodedError`): a gap, to be reported as a bug.
    case unclassified

    /// The code an error carries (`CodedError`); `unclassified` for one that carries none.
    package init(classifying error: any Error) {
        self = (error as? any CodedError)?.code ?? .unclassified
    }

    /// Whether the run must stop starting files (and exit 75): a resource ran out.
    package var isExhaustion: Bool { self == .diskFull || self == .outOfResources }

    /// Errnos that mean the disk is full.
    static let diskFullErrnos: Set<Int32> = [ENOSPC, EDQUOT]
    /// Errnos that mean another resource ran out: the file size limit, a read-only file
    /// system, descriptors, processes or memory.
    static let exhaustionErrnos: Set<Int32> = [EFBIG, EROFS, EMFILE, ENFILE, EAGAIN, ENOMEM]

    /// The code for a failed call's `errno`: a resource that ran out, or `otherwise`. The
    /// one errno table: every error that carries an errno is classified through it.
    package init(errno: Int32?, otherwise: ErrorCode) {
        switch errno {
        case let code? where Self.diskFullErrnos.contains(code): self = .diskFull
        case let code? where Self.exhaustionErrnos.contains(code): self = .outOfResources
        default: self = otherwise
        }
    }
}
