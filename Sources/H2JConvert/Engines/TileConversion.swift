import H2JContainer
import H2JJPEGCodec
import H2JSupport
import H2JTiles

/// The streaming tile engine as a `ConversionEngine`: raw YCbCr 4:2:0 (or gray) bands,
/// decoded while they are written, straight into the sink.
struct TileConversion: ConversionEngine {
    let engine: TileEngine

    var kind: ConversionResult.Engine { .tiles }
    var width: Int { engine.image.geometry.width }
    var height: Int { engine.image.geometry.height }
    var warnings: [Warning] { [] }

    func libraryMetadata() -> SourceMetadata? { nil }
    mutating func decode() {}

    func pixelFormat() -> PixelFormat {
        PixelFormat(width: width, height: height, layout: .planes(components: engine.image.monochrome ? 1 : 3, subsampling: .s420))
    }

    func emit(into sink: any PixelSink) throws {
        try engine.run(into: sink)
    }
}
