import H2JColour
import H2JContainer

extension ImageColour {
    /// What `engine` writes of `context`'s image: data for an auxiliary image; otherwise
    /// the profile its pixels are in: the engine's own colour space (tone-mapped HDR), else
    /// the source's ICC (`stored`), else the one built for its nclx (`ICCFromNCLX`: none
    /// for sRGB), else the codestream's own (a JPEG item's). The graft's profile in keep
    /// mode, and what `--colorspace srgb` converts from.
    init(_ context: ConversionContext, engine: any ConversionEngine, stored: [UInt8]?) {
        if context.master != nil {
            self = .data
        } else if let colour = engine.outputColour {
            self = .colour(profile: ICCFromNCLX.profile(for: colour))
        } else {
            let nclx = SourceMetadata.nclx(context.structure, context.item.id)
            self = .colour(profile: stored ?? (nclx.map { ICCFromNCLX.profile(for: $0) } ?? engine.embeddedMetadata?.icc))
        }
    }

    /// As the container stores it (`SourceMetadata.colour`), before any metadata is read.
    init(_ context: ConversionContext, engine: any ConversionEngine) {
        self.init(context, engine: engine, stored: SourceMetadata.colour(context.structure, context.item.id).icc)
    }
}
