/// What `keep` and `strip` mean for metadata.
public enum MetadataMode: String, Sendable, CaseIterable {
    /// Lossless-metadata mode: EXIF (Orientation reset to 1, dimensions updated), XMP and ICC are grafted.
    case keep
    /// Lossy mode: pixels only, plus the ICC profile because colours depend on it.
    case strip
}

/// Settings shared by every file of a run.
public struct ConversionOptions: Sendable, Equatable {
    /// JPEG quality, 1…100.
    public var quality = 90
    public var metadata = MetadataMode.keep
    /// Colour transparent pixels are flattened onto (JPEG has no alpha).
    public var background = RGBColor.white
    public var subsampling = ChromaSubsampling.s420
    /// Replace existing outputs instead of reporting them `skipped`.
    public var overwrite = false
    /// Plan and report, write nothing.
    public var dryRun = false
    /// Largest image accepted, in pixels after transforms: refuses decompression bombs,
    /// accepts every camera (a 200 MP phone photo is 12240×16320 = 199.8 MP).
    public var maxPixels = ConversionOptions.defaultMaxPixels
    /// libheif decoding threads per file (tiles of one image in parallel).
    public var decodingThreads = 1

    public static let defaultMaxPixels = 16384 * 16384
    /// Largest width or height libheif accepts, checked before any allocation.
    public static let maxDimension = 65535

    public init() {}
}
