import H2JBatch
import H2JConvert

/// What `heic2jpg compare` is asked to do.
package struct CompareRequest: Sendable, Equatable {
    /// HEIF files to convert in both modes.
    package var files: [String] = []
    /// Print one JSON array instead of a table.
    package var json = false
    /// JPEG quality for both conversions.
    package var quality = 90
    /// `--timeout`: seconds one conversion (or the Y-PSNR decodes) may take in the
    /// decoder process; 0 = no limit.
    package var timeoutSeconds = WorkerLimits.defaultTimeoutSeconds
    package init() {}
}
