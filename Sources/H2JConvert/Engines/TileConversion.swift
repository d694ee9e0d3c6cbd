import H2JContainer
import H2JJPEGCodec
import H2JJob
import H2JSupport
import H2JTiles

/// The streaming tile engine as a `ConversionEngine`: raw YCbCr 4:2:0 (or gray) bands,
/// decoded while they are written, straight into the sink.
struct TileConversion: ConversionEngine {
    let engine: TileEngine
    /// The lanes set decoding ahead (`decodeAhead`), which `emit` goes on from.
    private var ahead: TileEngine.Start?

    init(engine: TileEngine) {
        self.engine = engine
    }

    var kind: ConversionResult.Engine { .tiles }
    var width: Int { engine.image.geometry.width }
    var height: Int { engine.image.geometry.height }
    var warnings: [Warning] { [] }

    func libraryMetadata() -> SourceMetadata? { nil }
    mutating func decode() {}

    func pixelFormat() -> PixelFormat {
        PixelFormat(width: width, height: height, layout: .planes(components: engine.image.monochrome ? 1 : 3, subsampling: .s420))
    }

    /// Sets the lanes decoding the first bands now, for the JPEG writer's row groups (8
    /// rows for gray, 16 for 4:2:0), all but one: that one is this thread's, which
    /// meanwhile decodes another image (the gain map), and `emit` takes it back. A sink
    /// that groups rows otherwise starts afresh; a lane that cannot start leaves it all
    /// to `emit`.
    mutating func decodeAhead() {
        ahead = try? engine.start(rowsPerCall: engine.image.monochrome ? 8 : 16, ahead: true)
    }

    func emit(into sink: any PixelSink) throws {
        try engine.run(into: sink, started: ahead)
    }
}
