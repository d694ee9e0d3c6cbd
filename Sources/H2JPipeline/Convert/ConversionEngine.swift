import H2JContainer
import H2JJPEGCodec
import H2JSupport

/// One way of turning an image item into JPEG pixels, chosen before any pixel is
/// decoded (`ConversionEngines.choose`): the streaming tile engine for what it takes,
/// libheif's full decode for the rest. The converter drives every engine through the
/// same write sequence: `start`, the graft's segments, `writePixels`, `finish`, trailer.
protocol ConversionEngine {
    /// Which engine this is, for the report.
    var kind: ConversionResult.Engine { get }
    /// The upright output size, known before decoding: the pixel limit is checked on it.
    var width: Int { get }
    var height: Int { get }
    /// The item's metadata as the engine's own library reads it, for when our container
    /// cannot read a metadata item; nil when the engine has no reader of its own.
    func libraryMetadata() -> SourceMetadata?
    /// Decodes what must be decoded before the output is opened (libheif: the whole
    /// image; the tile engine decodes while it writes).
    mutating func decode() throws
    /// Writes the frame header for this engine's pixels.
    func start(_ writer: JPEGWriter, quality: Int) throws
    /// Writes every row of pixels, after the graft's segments, each sample through
    /// `mapping` when given (a gain map's codes).
    func writePixels(to writer: JPEGWriter, mapping: SampleMapping?) throws
    /// What decoding left to say about the pixels.
    var warnings: [Warning] { get }
    /// The colour space of the pixels written, when it is not the source's (tone-mapped
    /// HDR): the output's ICC profile is built for it instead of taken from the source.
    var outputColour: NCLX? { get }
}

extension ConversionEngine {
    var outputColour: NCLX? { nil }
}
