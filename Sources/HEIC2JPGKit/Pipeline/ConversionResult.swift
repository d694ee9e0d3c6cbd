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
