/// How one input ended. Every input the run looked at ends as exactly one result.
public struct ConversionResult: Sendable, Equatable {
    public enum Status: String, Sendable {
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
    }

    /// Which metadata the output carries.
    public struct MetadataKept: Sendable, Equatable {
        public var exif = false
        public var xmp = false
        public var icc = false
        public init(exif: Bool = false, xmp: Bool = false, icc: Bool = false) {
            self.exif = exif
            self.xmp = xmp
            self.icc = icc
        }
    }

    /// Which engine decoded a converted file.
    public enum Engine: String, Sendable {
        /// Our streaming tile engine (container reader + libde265 + raw JPEG bands).
        case tiles
        /// libheif's full decode, for what the tile engine does not take.
        case libheif
    }

    public var source: String
    public var output: String?
    public var status: Status
    public var reason: String?
    public var width: Int?
    public var height: Int?
    /// Size of the written output.
    public var bytes: Int?
    public var metadata = MetadataKept()
    public var warnings: [String] = []
    public var engine: Engine?
    /// Why the tile engine did not take the file, when libheif converted it.
    public var engineReason: String?
    public var milliseconds = 0

    public init(source: String, output: String?, status: Status, reason: String? = nil) {
        self.source = source
        self.output = output
        self.status = status
        self.reason = reason
    }

    static func failed(_ job: Job, _ reason: String) -> ConversionResult {
        ConversionResult(source: job.source.display, output: job.output.display, status: .failed, reason: reason)
    }
}
