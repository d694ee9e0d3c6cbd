import H2JJob
import H2JMetadata

/// One setting `compare` converts at, besides the metadata mode: a quality and a
/// `--max-size` box (nil: the source's size). Every variant is converted in both modes,
/// so the modes can be set side by side at several sizes and qualities.
package struct CompareVariant: Sendable, Equatable {
    package var quality: Int
    package var maxSize: OutputBox?

    package init(quality: Int, maxSize: OutputBox?) {
        self.quality = quality
        self.maxSize = maxSize
    }

    /// Every combination of `qualities` and `maxSizes`, qualities outermost, in the order given.
    package static func all(qualities: [Int], maxSizes: [OutputBox?]) -> [CompareVariant] {
        qualities.flatMap { quality in maxSizes.map { CompareVariant(quality: quality, maxSize: $0) } }
    }

    /// `base` with this variant's quality and box, and `mode`.
    func options(_ base: ConversionOptions, _ mode: MetadataMode) -> ConversionOptions {
        var options = base
        (options.quality, options.maxSize, options.metadata) = (quality, maxSize, mode)
        return options
    }
}
