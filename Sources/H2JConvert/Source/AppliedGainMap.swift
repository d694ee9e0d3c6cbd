import H2JContainer
import H2JSupport

/// A source's gain map that takes its HDR base to the SDR rendition (`GainMapSource.hdrBase`),
/// decoded whole: `ToneMappedConversion` applies it to the primary (`GainMapApplication`)
/// instead of its own tone curve.
struct AppliedGainMap {
    let item: UInt32
    /// As the file states it: from the HDR base to the SDR rendition.
    let metadata: GainMapMetadata
    /// The H.273 primaries the gain applies in, which the SDR pixels are written in.
    let primaries: Int
    let pixels: Raster
}
