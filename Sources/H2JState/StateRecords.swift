import H2JSupport

/// What the state knows of one source: where it is, what it was when it was converted,
/// how that ended, and its outputs.
package struct SourceRecord: Equatable, Sendable {
    /// The input root, absolute.
    package var root: String
    /// The path relative to `root`.
    package var path: String
    package var identity: FileIdentity
    /// The source's SHA-256 (hex), when the run computed it (the provenance mark does).
    package var sha256: String?
    /// The report's status (`converted`, `updated`, `copied`, `skipped`, `failed`,
    /// `missing-source`), or `source-changed`: the hand-off found the source changed since
    /// its conversion, so the next run converts it again whatever its identity says.
    package var status: String
    package var errorCode: String?
    package var reason: String?
    package var toolVersion: String
    /// The options that shape the output (`ConversionOptions.fingerprint`).
    package var options: String
    package var startedNanoseconds: Int
    package var finishedNanoseconds: Int
    package var outputs: [OutputRecord]
    /// The outputs carry all of the source (no warning, nothing left out): only then may
    /// it be handed off.
    package var complete = false
    /// The planned size of the primary output.
    package var width: Int?
    package var height: Int?
    /// The source's ctime (ns) as the conversion saw it, with `identity` what the hand-off
    /// checks; nil in records of heic2jpg before the verified hand-off.
    package var ctimeNanoseconds: Int?
    /// `deleted` or `moved` once the source was handed off (it is then not missing).
    package var handedOff: String?
    /// Why the last hand-off kept the source, when it did.
    package var kept: String?

    package init(root: String, path: String, identity: FileIdentity, sha256: String? = nil, status: String,
                 errorCode: String? = nil, reason: String? = nil, toolVersion: String, options: String,
                 startedNanoseconds: Int, finishedNanoseconds: Int, outputs: [OutputRecord] = [], complete: Bool = false,
                 width: Int? = nil, height: Int? = nil, ctimeNanoseconds: Int? = nil, handedOff: String? = nil,
                 kept: String? = nil) {
        self.root = root
        self.path = path
        self.identity = identity
        self.sha256 = sha256
        self.status = status
        self.errorCode = errorCode
        self.reason = reason
        self.toolVersion = toolVersion
        self.options = options
        self.startedNanoseconds = startedNanoseconds
        self.finishedNanoseconds = finishedNanoseconds
        self.outputs = outputs
        self.complete = complete
        self.width = width
        self.height = height
        self.ctimeNanoseconds = ctimeNanoseconds
        self.handedOff = handedOff
        self.kept = kept
    }

    /// Whether an output at `path` (relative or absolute) is recorded for this source.
    package func recordsOutput(at path: String) -> Bool {
        let absolute = Path.absolute(path)
        return outputs.contains { $0.path == absolute }
    }

    /// A relative path's bytes split at its last `/` into its directory (empty for a
    /// name at the root) and its name.
    package static func splitBytes(_ path: [UInt8]) -> (directory: [UInt8], name: [UInt8]) {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return ([], path) }
        return (Array(path[..<slash]), Array(path[(slash + 1)...]))
    }

    /// A relative path split into its directory (as `splitBytes`) and its last name.
    /// The escape of `PathBytes` never yields a `/`, so splitting the text is exact.
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        return (String(path[..<slash]), String(path[path.utf8.index(after: slash)...]))
    }

    /// Whether `status` is one after which the outputs are complete and the source need
    /// not be converted again while nothing changes. A comparison, not a set's hash: the
    /// no-op rerun asks it of every source.
    package static func isDone(_ status: String) -> Bool {
        status == "converted" || status == "skipped" || status == "updated" || status == "copied"
    }

    /// The status of a source the hand-off found changed since its conversion.
    package static let sourceChanged = "source-changed"
}

/// One output of a source, as published.
package struct OutputRecord: Equatable, Sendable {
    /// Absolute path.
    package var path: String
    package var size: Int
    package var sha256: String?
    /// What the output is: `primary` (the JPEG of the primary image).
    package var kind: String
    package var inode: Int
    package var mtimeNanoseconds: Int

    package init(path: String, size: Int, sha256: String? = nil, kind: String = "primary", inode: Int, mtimeNanoseconds: Int) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.kind = kind
        self.inode = inode
        self.mtimeNanoseconds = mtimeNanoseconds
    }
}

/// What makes a file the same file for the state: size, modification time to the
/// nanosecond, inode and device.
package struct FileIdentity: Equatable, Sendable {
    package var size: Int
    package var mtimeNanoseconds: Int
    package var inode: Int
    package var device: Int

    package init(size: Int, mtimeNanoseconds: Int, inode: Int, device: Int) {
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.device = device
    }
}
