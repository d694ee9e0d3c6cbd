/// Why a `ByteSource` could not supply a range of bytes.
///
/// Descriptions say what happened, not what was being done: callers prefix that
/// ("cannot read: …").
package enum ReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The range does not lie inside the source: a structure pointing past the end of
    /// the file (the container reports it as a truncated box).
    case outOfRange(offset: Int, count: Int, size: Int)
    /// The read itself failed; the errno is kept.
    case system(SystemError)
    /// The file ended at `offset` although its size said more bytes follow (it shrank
    /// while being read).
    case endOfFile(offset: Int)

    package var description: String {
        switch self {
        case .outOfRange(let offset, let count, let size):
            "\(count) bytes at offset \(offset) lie outside the \(size)-byte file"
        case .system(let error):
            error.description
        case .endOfFile(let offset):
            "the file ends at offset \(offset), before its stated size (it changed while being read)"
        }
    }

    /// The errno of a failed read, if that is what happened.
    package var errno: Int32? {
        if case .system(let error) = self { error.errno } else { nil }
    }
}

extension ReadError: CodedError {
    package var code: ErrorCode { ErrorCode(errno: errno, otherwise: .sourceUnreadable) }
}
