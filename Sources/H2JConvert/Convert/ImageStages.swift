import H2JContainer
import H2JSupport
import H2JTiles

/// What every image goes through before it is encoded, whichever output it is for (the
/// primary, another still image, an auxiliary image, a gain map): each stage announced
/// as it starts (`at`), the engine chosen (a grid of tiles, a derived image, one coded
/// item), the pixel limit checked on the upright size before anything is decoded, and
/// the decode that must happen before the output is opened.
struct ImageStages: Sendable {
    let options: ConversionOptions
    /// The tile engine's decoders, shared by every file the converter runs.
    let decoders: TileDecoderPool
    /// Told when each stage starts (see `Converter.init`).
    let onStage: @Sendable (PipelineError.Stage, ConversionResult.Engine?, UInt32?) -> Void

    /// Runs one stage: tells `onStage`, then turns what it throws into a `PipelineError`.
    /// `image` is the item of an output that does not hold the primary.
    func at<T>(_ stage: PipelineError.Stage, engine: ConversionResult.Engine? = nil, image: UInt32? = nil,
               _ body: () throws -> T) throws(PipelineError) -> T {
        onStage(stage, engine, image)
        return try PipelineError.at(stage, body)
    }

    /// engine → limit → decode, for one image (`image`: of an output that does not hold
    /// the primary), with the pixel stage `chain` gives for its engine, asked again once
    /// decoded (a tone-mapped image's colour is known then): every image of every output,
    /// the gain map's included, is decoded here.
    func decoded(_ context: ConversionContext, chain: (any ConversionEngine) -> PixelChain, engineUsed: inout ConversionResult.Engine?,
                 image: UInt32?) throws(PipelineError) -> (engine: any ConversionEngine, refusal: String?, chain: PixelChain) {
        var (engine, refusal) = try at(.engine, image: image) { try ConversionEngines.choose(context, decoders: decoders, chain: chain) }
        engineUsed = engine.kind
        try at(.limit, engine: engine.kind, image: image) { try LimitError.check(width: engine.width, height: engine.height, maxPixels: options.maxPixels) }
        try at(.decode, engine: engine.kind, image: image) {
            TestCrash.reach(decoding: image)
            try engine.decode()
        }
        return (engine, refusal, chain(engine))
    }
}
