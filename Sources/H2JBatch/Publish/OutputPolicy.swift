#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JMetadata
import H2JSupport

/// The one rule for what may be written at an output path, which the planner asks for a
/// source's primary output and a job's outputs (`JobOutputs`) for every other image's:
/// never over the source itself, a directory or a file that holds HEIF data; never over
/// the output of a photo handed off before; otherwise the path is free, holds this
/// source's own output (`OutputOwnership`), or holds a foreign file. `--on-conflict
/// suffix` tries `suffixes` in order, through the same rule.
struct OutputPolicy {
    let publisher: OutputPublisher

    /// What an existing output must show to be this source's own.
    struct Ownership {
        /// The source's file name, as a mark records it (`Endpoint.fileName`).
        let name: String
        /// The source's times; nil for stdin.
        let times: FileTimes?
        /// The source's SHA-256 (nil when it cannot be read), asked only for a mark
        /// that names no file (strip mode's).
        let digest: () -> String?
        /// This run would write a mark.
        let markExpected: Bool
        /// Whether the state records a path as this source's output.
        let recorded: (String) -> Bool
    }

    enum Verdict: Equatable {
        /// Nothing is there.
        case free
        /// This source's own earlier output is there, with its mark, if it has one.
        case ours(ProvenanceMark?)
        /// A file heic2jpg did not write for this source is there.
        case foreign
        /// Nothing may be written there, for the reason given.
        case refused(ErrorCode, String)
    }

    /// The verdict for `path`, for `source` (nil for stdin).
    func verdict(_ path: String, source: SourceFile?, ownership: Ownership) -> Verdict {
        if let source, source.isSameFile(as: path) || Array(path.utf8) == Array(source.path.utf8) {
            return .refused(.outputIsSource, "output would overwrite the source itself; use --output to write elsewhere")
        }
        let existing: SourceFile
        do {
            existing = try SourceFile(path: path)
        } catch {
            if error.fileType == S_IFDIR { return .refused(.outputIsDirectory, "output \(path) exists and is a directory") }
            // Anything else there (a FIFO, a file we cannot read) is not ours.
            return POSIX.fileInfo(path, followingLinks: false) != nil ? .foreign : .free
        }
        if let prefix = try? existing.prefix(ImageFormat.sniffLength), ImageFormat.sniff(prefix).isHEIF {
            return .refused(.outputHoldsHEIF, "output \(path) exists and holds HEIF data; refusing to overwrite what may be a source")
        }
        // The output of an original handed off before is nobody's to replace (a new photo with its old name).
        if publisher.handedOffSource(ofOutput: path) != nil { return .foreign }
        let mark = OutputOwnership.mark(of: existing)
        return OutputOwnership.isOurs(existing, mark: mark, sourceName: ownership.name, sourceDigest: ownership.digest,
                                      sourceTimes: ownership.times, markExpected: ownership.markExpected,
                                      recorded: ownership.recorded(path)) ? .ours(mark) : .foreign
    }

    /// The names `--on-conflict suffix` tries for `path`, in order (`NAME-1.jpg`, …), less
    /// those another source of this run has claimed. A caller takes the first whose
    /// verdict is free or this source's own, and passes over the others.
    func suffixes(of path: String) -> some Sequence<String> {
        OutputPublisher.suffixedPaths(of: path).lazy.filter { !publisher.isClaimed($0) }
    }

    /// The error that fails a source whose other image's path holds a foreign file:
    /// naming the handed-off original whose output it is, when it is one.
    func foreign(_ path: String, suffixesTaken: Bool = false) -> ForeignOutputError {
        ForeignOutputError(output: path, suffixesTaken: suffixesTaken, handedOffSource: publisher.handedOffSource(ofOutput: path))
    }
}

/// An output path the policy refuses outright (the source itself, a directory, HEIF
/// data): the source fails with that code.
struct OutputRefusal: CodedError, CustomStringConvertible {
    let code: ErrorCode
    let description: String
}
