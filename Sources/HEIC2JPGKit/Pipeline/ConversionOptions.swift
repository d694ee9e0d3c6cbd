/// What `keep` and `strip` mean for metadata.
public enum MetadataMode: String, Sendable, CaseIterable {
    /// Lossless-metadata mode: EXIF (Orientation reset to 1, dimensions updated), XMP and ICC are grafted.
    case keep
    /// Lossy mode: pixels only, plus the ICC profile because colours depend on it.
    case strip

    /// The mode's name where it is shown or recorded (the provenance mark, `inspect`,
    /// `compare`): the names the README gives the two modes.
    public var name: String {
        switch self {
        case .keep: "lossless-metadata"
        case .strip: "lossy"
        }
    }
}

/// Settings shared by every file of a run.
public struct ConversionOptions: Sendable, Equatable {
    /// JPEG quality, 1…100.
    public var quality = 90
    public var metadata = MetadataMode.keep
    /// In `keep` mode, remove the GPS IFD and XMP `exif:GPS…` properties (location privacy).
    public var stripGPS = false
    /// Write the provenance mark (`ProvenanceMark`); `--no-mark` turns it off.
    public var mark = true
    /// Colour transparent pixels are flattened onto (JPEG has no alpha).
    public var background = RGBColor.white
    /// Replace existing outputs instead of reporting them `skipped`.
    public var overwrite = false
    /// Plan and report, write nothing.
    public var dryRun = false
    /// Largest image accepted, in pixels after transforms: refuses decompression bombs,
    /// accepts every camera (a 200 MP phone photo is 12240×16320 = 199.8 MP).
    public var maxPixels = ConversionOptions.defaultMaxPixels
    /// Threads decoding the tiles of one file (the tile engine's lanes, or libheif's
    /// decoding threads).
    public var decodingThreads = 1
    /// Requested chroma subsampling. Tiles are 4:2:0, so other values send colour
    /// images to libheif (the library API offers it; the command line does not).
    public var subsampling = ChromaSubsampling.s420

    public static let defaultMaxPixels = 256_000_000
    /// `--max-pixels` ceiling in megapixels: 65535 × 65535, libheif's own size limit.
    public static let maxMegapixels = 4294
    /// Largest width or height libheif accepts, checked before any allocation.
    public static let maxDimension = 65535

    public init() {}
}
