#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JSupport

/// One way of turning an image item into JPEG pixels, chosen before any pixel is
/// decoded (`ConversionEngines.choose`): the streaming tile engine for what it takes, a
/// JPEG item's own codestream, heic2jpg's uncompressed (`unci`) decoder, libheif's full
/// decode for the rest. The converter drives every engine through the same write
/// sequence (`encode`): `start`, the graft's segments, `writePixels`, `finish`, trailer.
protocol ConversionEngine {
    /// Which engine this is, for the report.
    var kind: ConversionResult.Engine { get }
    /// The upright output size, known before decoding: the pixel limit is checked on it.
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
    /// Writes the frame header for this engine's pixels.
    func start(_ writer: JPEGWriter, quality: Int) throws
    /// Writes every row of pixels, after the graft's segments, each sample through
    /// `mapping` when given (a gain map's codes).
    func writePixels(to writer: JPEGWriter, mapping: SampleMapping?) throws
    /// Writes the whole JPEG to `fd` (named `path`): frame header, then what `segments`
    /// writes (the graft's and any Multi-Picture segment), pixels, EOI.
    func encode(to fd: Int32, path: String, quality: Int, segments: (any JPEGSegmentSink) throws -> Void) throws
    /// What decoding left to say about the pixels.
    var warnings: [Warning] { get }
    /// The colour space of the pixels written, when it is not the source's (tone-mapped
    /// HDR): the output's ICC profile is built for it instead of taken from the source.
    var outputColour: NCLX? { get }
}

extension ConversionEngine {
    var outputColour: NCLX? { nil }
}

extension ConversionEngine {
    var embeddedMetadata: SourceMetadata? { nil }

    func encode(to fd: Int32, path: String, quality: Int, segments: (any JPEGSegmentSink) throws -> Void) throws {
        try encodeWithLibjpeg(to: fd, quality: quality, segments: segments)
    }

    /// The encoder's sequence: libjpeg writes the frame header, the segments, the rows.
    func encodeWithLibjpeg(to fd: Int32, quality: Int, segments: (any JPEGSegmentSink) throws -> Void) throws {
        let writer = try JPEGWriter(fd: fd)
        try start(writer, quality: quality)
        try segments(writer)
        try writePixels(to: writer, mapping: nil)
        try writer.finish()
    }
}
