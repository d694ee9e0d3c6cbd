import H2JContainer
import H2JJPEG
import H2JJob
import H2JSupport

/// One way of getting an image item's upright pixels, chosen before any pixel is
/// decoded (`ConversionEngines.choose`): the streaming tile engine for what it takes, a
/// JPEG item's own codestream, heic2jpg's uncompressed (`unci`) decoder, libheif's full
/// decode for the rest. An engine is a source of pixel bands: it writes them into the
/// sink the pixel stage gives it and never drives the encoder (`ImageEncoder` does).
protocol ConversionEngine {
    /// Which engine this is, for the report.
    var kind: ConversionResult.Engine { get }
    /// The upright size, known before decoding: the pixel limit is checked on it.
    var width: Int { get }
    var height: Int { get }
    /// The item's metadata as the engine's own library reads it, for when our container
    /// cannot read a metadata item; nil when the engine has no reader of its own.
    func libraryMetadata() -> SourceMetadata?
    /// Metadata the coded image carries inside itself (a JPEG item's own EXIF, XMP and
    /// ICC segments), used for what the container's items do not give; nil for none.
    var embeddedMetadata: SourceMetadata? { get }
    /// Decodes what must be decoded before the output is opened (libheif: the whole
    /// image; the tile engine decodes while it writes).
    mutating func decode() throws
    /// The bands `emit` writes (after `decode`): their size, which may differ from
    /// `width`×`height` where the coded stream wins over a declared size, and layout.
    func pixelFormat() throws -> PixelFormat
    /// Writes every band, top to bottom, into `sink`.
    func emit(into sink: any PixelSink) throws
    /// A finished codestream that stands for the pixels (a JPEG item copied losslessly),
    /// which the encoder copies, its metadata grafted, when no pixel step runs; nil when
    /// the pixels must be encoded.
    var codestream: JPEGSegments? { get }
    /// What decoding left to say about the pixels.
    var warnings: [Warning] { get }
    /// The colour space of the pixels written, when it is not the source's (tone-mapped
    /// HDR): the output's ICC profile is built for it instead of taken from the source.
    var outputColour: NCLX? { get }
}

extension ConversionEngine {
    var outputColour: NCLX? { nil }
    var embeddedMetadata: SourceMetadata? { nil }
    var codestream: JPEGSegments? { nil }
}
