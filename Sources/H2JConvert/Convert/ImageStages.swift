import H2JContainer
import H2JJob
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

    /// An image past its engine and limit stages, not yet decoded.
    struct ChosenImage {
        var engine: any ConversionEngine
        let refusal: String?
        /// Its pixel stage for an engine, asked again once decoded.
        let chain: (any ConversionEngine) -> PixelChain
    }

    /// engine → limit → decode, for one image (`image`: of an output that does not hold
    /// the primary) in `role`, with `before` its first pixel steps: every image of every
    /// output, the gain map's included, is decoded here, and its pixel stage chosen
    /// (`PixelStage.chain`) for what its engine gives: the upright size and, for a picture,
    /// the colour, asked again once decoded (a tone-mapped image's colour is known then).
    func decoded(_ context: ConversionContext, role: PixelStage.Role, before: [any PixelOperation] = [],
                 engineUsed: inout ConversionResult.Engine?, image: UInt32?)
        throws(PipelineError) -> (engine: any ConversionEngine, chain: PixelChain, refusal: String?) {
        try decode(chosen(context, role: role, before: before, engineUsed: &engineUsed, image: image), image: image)
    }

    /// The engine and limit stages of `decoded`: nothing is decoded yet.
    func chosen(_ context: ConversionContext, role: PixelStage.Role, before: [any PixelOperation] = [],
                engineUsed: inout ConversionResult.Engine?, image: UInt32?) throws(PipelineError) -> ChosenImage {
        let options = options
        let chain = { (engine: any ConversionEngine) -> PixelChain in
            let colour: ImageColour = if case .picture = role { ImageColour(context, engine: engine) } else { .data }
            let steps = PixelStage.chain(for: options, role: role, colour: colour, width: engine.width, height: engine.height)
            return PixelChain(operations: before + steps.operations)
        }
        let (engine, refusal) = try at(.engine, image: image) { try ConversionEngines.choose(context, decoders: decoders, chain: chain) }
        engineUsed = engine.kind
        try at(.limit, engine: engine.kind, image: image) { try LimitError.check(width: engine.width, height: engine.height, maxPixels: options.maxPixels) }
        return ChosenImage(engine: engine, refusal: refusal, chain: chain)
    }

    /// The decode and pixel stages of `decoded`, for an image `chosen` gave.
    func decode(_ chosen: ChosenImage, image: UInt32?) throws(PipelineError) -> (engine: any ConversionEngine, chain: PixelChain, refusal: String?) {
        var engine = chosen.engine
        try at(.decode, engine: engine.kind, image: image) {
            TestCrash.reach(decoding: image)
            try engine.decode()
        }
        let decoded = engine
        let chain = try at(.pixels, engine: engine.kind, image: image) {
            TestCrash.reach(.pixels)
            return chosen.chain(decoded)
        }
        return (engine, chain, chosen.refusal)
    }
}
