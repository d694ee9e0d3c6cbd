import H2JColour
import H2JContainer
import H2JTiles

/// The engine choice, made after parsing and before any pixel is decoded: a JPEG item
/// is its own codestream and an uncompressed (`unci`) image goes to heic2jpg's decoder;
/// an image whose nclx names an HDR transfer (PQ, HLG) is tone-mapped
/// (`ToneMappedConversion`); a derived image heic2jpg composes (overlay, `iden`, grid
/// of derived tiles) goes to `DerivedConversion`; otherwise the tile engine's capability
/// check (`EngineChoice.make`) decides, and what it refuses goes to libheif with the reason.
enum ConversionEngines {
    /// The engine for `context`'s item and, for libheif, why the tile engine did not take
    /// it. `chain` gives the pixel stage the image goes through with an engine (a JPEG
    /// item is copied only when it changes no rows: `keepsCodestream`).
    static func choose(_ context: ConversionContext, decoders: TileDecoderPool, chain: (any ConversionEngine) -> PixelChain) throws
        -> (engine: any ConversionEngine, refusal: String?) {
        switch context.item.itemType {
        case "jpeg":
            let copied = try JPEGItemConversion(context, pixelsChange: false)
            return (chain(copied).keepsCodestream ? copied : try JPEGItemConversion(context, pixelsChange: true), nil)
        case "unci": return (try UncompressedConversion(context), nil)
        default: break
        }
        if context.master == nil, let nclx = SourceMetadata.nclx(context.structure, context.item.id),
           HDRTransfer(nclxTransfer: nclx.transfer) != nil {
            let applied = context.item.id == context.structure.primaryID ? context.appliedGainMap : nil
            return (try ToneMappedConversion(context, nclx: nclx, gainMap: applied),
                    "an HDR image (nclx transfer \(nclx.transfer)), " + (applied == nil ? "tone-mapped" : "its gain map applied") + " from its full bit depth")
        }
        // After the HDR check: a composition's inputs are decoded to 8 bits, not tone-mapped.
        if context.structure.isComposed(context.item.id) { return (try DerivedConversion(context), nil) }
        switch try EngineChoice.make(context.structure, image: context.item, source: context.source) {
        case .tiles(let image) where context.fullChroma && !image.monochrome:
            // An auxiliary image or gain map coded in colour is not subsampled, which libheif's RGB allows.
            return (try LibheifConversion(context), "an auxiliary image or gain map coded in colour")
        case .tiles(let image):
            let engine = TileEngine(image: image, structure: context.structure, source: context.source,
                                    lanes: context.options.decodingThreads, decoders: decoders)
            return (TileConversion(engine: engine), nil)
        case .libheif(let reason):
            return (try LibheifConversion(context), reason)
        }
    }
}
