import H2JContainer
import H2JJPEGCodec
import H2JSupport
import H2JTiles

/// The streaming tile engine as a `ConversionEngine`: raw YCbCr bands straight into
/// libjpeg, decoded while they are written.
struct TileConversion: ConversionEngine {
    let engine: TileEngine

    var kind: ConversionResult.Engine { .tiles }
    var width: Int { engine.image.geometry.width }
    var height: Int { engine.image.geometry.height }
    var warnings: [Warning] { [] }

    func libraryMetadata() -> SourceMetadata? { nil }
    mutating func decode() {}

    func start(_ writer: JPEGWriter, quality: Int) throws {
        try writer.startRaw(width: width, height: height, components: engine.image.monochrome ? 1 : 3, quality: quality)
    }

    func writePixels(to writer: JPEGWriter, mapping: SampleMapping?) throws {
        if let mapping { try engine.run(into: MappedRawPlaneSink(writer: writer, mapping: mapping)) } else { try engine.run(into: writer) }
    }
}
