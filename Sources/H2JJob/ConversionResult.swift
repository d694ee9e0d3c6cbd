import H2JSupport
import H2JJPEG
import H2JOutputPlan

/// How one input ended. Every input the run looked at ends as exactly one result.
package struct ConversionResult: Sendable, Equatable {
    package enum Status: String, Sendable {
        /// HEIF decoded and written as JPEG.
        case converted
        /// JPEG content under a HEIF name, copied to `.jpg`.
        case copied
        /// The output exists and `--overwrite` was not given.
        case skipped
        /// `--dry-run`: would be converted or copied.
        case planned
        /// Nothing written; `reason` says why.
        case failed
        /// `--state`: the source changed since its recorded conversion and was converted again.
        case updated
        /// `--state`: a recorded source is gone; its outputs are kept.
        case missingSource = "missing-source"
    }

    /// Which engine decoded a converted file.
    package enum Engine: String, Sendable {
        /// Our streaming tile engine (container reader + libde265 + raw JPEG bands).
        case tiles
        /// libheif's full decode, for what the tile engine does not take.
        case libheif
        /// A `jpeg` item's own codestream, copied with its metadata replaced (or, to apply
        /// its transforms, decoded by libjpeg and encoded again).
        case jpeg
        /// heic2jpg's decoder of uncompressed (`unci`, ISO/IEC 23001-17) images.
        case uncompressed = "unci"
        /// heic2jpg's composition of a derived image (overlay, identity derivation, grid of
        /// derived tiles) from its inputs, each decoded by its own engine.
        case derived
    }

    package var source: String
    package var output: String?
    package var status: Status
    package var reason: String?
    /// For a failure: the stable code of its cause (`reason` says it in words).
    package var errorCode: ErrorCode?
    package var width: Int?
    package var height: Int?
    /// Size of the written output.
    package var bytes: Int?
    package var metadata = MetadataKept()
    package var warnings: [Warning] = []
    package var engine: Engine?
    /// Why the tile engine did not take the file, when libheif converted it.
    package var engineReason: String?
    /// The source's SHA-256 (hex), when the conversion computed it (for the mark).
    package var sourceSHA256: String?
    /// The published output's SHA-256 (hex), hashed as it was published.
    package var outputSHA256: String?
    /// The source's size and modification time (ns since 1970), as the walk found it.
    package var sourceSize: Int?
    package var sourceMtimeNanoseconds: Int?
    /// What the source holds that its output does not carry (other images, depth and
    /// gain maps, a sequence: `HEIFStructure.contentNotCarried`); such a source is never
    /// handed off.
    package var notCarried: [String] = []
    /// What the source holds that the user's own options left out (`--images primary`,
    /// `--aux` without that kind): named in the warning, but no reason to keep the source.
    package var leftOut: [String] = []
    /// Every output written for the source, the primary's first (`output` and the size,
    /// bytes and digest fields above are the primary's): with `--images all`, one per
    /// still image of the file. Empty when nothing was written.
    package var outputs: [OutputFile] = []
    /// What the output's HDR rendition (an Ultra HDR gain map) comes from; nil for SDR.
    package var hdr: String?
    /// What the planner's `fstat` saw of the source this result converted (the job's
    /// `sourceIdentity`): the state records it, and the hand-off checks it. Not reported.
    package var sourceIdentity: SourceIdentity?
    /// `--delete-source`/`--move-source`: `deleted` or `moved` once the source was handed off.
    package var handOff: String?
    package var milliseconds = 0

    package init(source: String, output: String?, status: Status, reason: String? = nil, errorCode: ErrorCode? = nil) {
        self.source = source
        self.output = output
        self.status = status
        self.reason = reason
        self.errorCode = errorCode
    }

    /// A failed input: `error`'s text as the reason, its code.
    package static func failed(source: String, output: String?, _ error: PipelineError) -> ConversionResult {
        ConversionResult(source: source, output: output, status: .failed, reason: error.description, errorCode: error.code)
    }

    /// A failure decided by the planner or the runner, with its code.
    package static func failed(source: String, output: String?, _ code: ErrorCode, _ reason: String) -> ConversionResult {
        ConversionResult(source: source, output: output, status: .failed, reason: reason, errorCode: code)
    }
}

/// One file written for a source: which output it is, the image item it shows, its
/// size in pixels and, once published, its size in bytes and digest.
package struct OutputFile: Sendable, Equatable {
    package var name: OutputName
    package var path: String
    /// The image item (its ID in the source's container).
    package var item: UInt32
    package var width: Int
    package var height: Int
    package var bytes: Int
    /// The published file's SHA-256 (hex), set by the publisher.
    package var sha256: String?

    package init(name: OutputName, path: String, item: UInt32, width: Int, height: Int, bytes: Int, sha256: String? = nil) {
        self.name = name
        self.path = path
        self.item = item
        self.width = width
        self.height = height
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// What the state records as the output's kind (`OutputName.kind`).
    package var kind: String { name.kind }
}
