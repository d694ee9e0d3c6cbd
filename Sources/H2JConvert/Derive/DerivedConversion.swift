import H2JCompose
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JSupport

/// A derived image heic2jpg composes itself (`HEIFStructure.isComposed`: an overlay, an
/// identity derivation, a grid with derived tiles) as a `ConversionEngine`: the
/// composition is planned from the container (`CompositionPlan`), its inputs are opened
/// (`DerivedInputs`) before the pixel limit is checked, decoded whole by `decode`, and
/// `Composition` paints the output in bands of 16 rows, which this engine writes into
/// the pixel stage's sink. An auxiliary image is written as its luma, without chroma subsampling.
struct DerivedConversion: ConversionEngine {
    private let composition: Composition
    private let inputs: DerivedInputs
    private let auxiliary: Bool
    private let sampling: ChromaSubsampling
    private var pictures: [Composition.Input] = []

    /// Plans the composition and opens its inputs; nothing is decoded.
    init(_ context: ConversionContext) throws {
        let inputs = DerivedInputs(context)
        composition = try CompositionPlan.make(context.structure, item: context.item.id, source: context.source,
                                               background: context.options.background, maxPixels: context.options.maxPixels,
                                               pictureSize: inputs.open)
        self.inputs = inputs
        auxiliary = context.master != nil
        sampling = context.colourSampling
    }

    var kind: ConversionResult.Engine { .derived }
    var width: Int { composition.width }
    var height: Int { composition.height }
    var warnings: [Warning] { inputs.warnings }
    func libraryMetadata() -> SourceMetadata? { nil }

    mutating func decode() throws {
        pictures = try inputs.decode(composition.pictures)
    }

    /// Gray for gray inputs and fills, and for an auxiliary image; else RGB.
    var components: Int {
        auxiliary ? 1 : composition.components(pictureComponents: pictures.map(\.pixels.components))
    }

    func pixelFormat() -> PixelFormat {
        PixelFormat(width: width, height: height, layout: .rows(components: components, subsampling: auxiliary ? .s444 : sampling))
    }

    func emit(into sink: any PixelSink) throws {
        try composition.forEachBand(pictures, components: components) { rows, stride, count in
            try sink.writeRows(rows, stride: stride, count: count)
        }
    }
}
