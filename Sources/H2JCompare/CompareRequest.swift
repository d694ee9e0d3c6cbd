import H2JBatch
import H2JJob

/// What `heic2jpg compare` is asked to do.
package struct CompareRequest: Sendable, Equatable {
    /// HEIF files to convert in both modes.
    package var files: [String] = []
    /// Print one JSON array instead of a table.
    package var json = false
    /// `--html FILE`: also write the comparison as one page (`ComparePage`).
    package var html: String?
    /// `-q`: each quality is converted at, in both modes.
    package var qualities = [ConversionOptions().quality]
    /// `--max-size`: each box converted to (nil: the source's size), at each quality.
    package var maxSizes: [OutputBox?] = [nil]
    /// The other shaping options (`--colorspace`, `--sampling`, …), the same for every output.
    package var options = ConversionOptions()
    /// `--timeout`: seconds one conversion (or the Y-PSNR decodes) may take in the
    /// decoder process; 0 = no limit.
    package var timeoutSeconds = WorkerLimits.defaultTimeoutSeconds
    /// `--decoder`: the tile engine's HEVC decoder in the decoder process.
    package var decoder = TileDecoderChoice.defaultChoice
    package init() {}

    /// What each file is converted at, besides the mode.
    package var variants: [CompareVariant] { CompareVariant.all(qualities: qualities, maxSizes: maxSizes) }
}
