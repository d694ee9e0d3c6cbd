import H2JSupport

/// A failure of one input: the stable code, the stage it happened in, and the leaf
/// error, whose text is the reason the user reads (the reporter prefixes the path).
package struct PipelineError: CodedError, CustomStringConvertible {
    /// Where in the pipeline the input failed.
    package enum Stage: String, Sendable {
        /// Walking the inputs and planning (sniffing, naming, the never-overwrite rules).
        case plan
        /// Opening the source and reading its container.
        case parse
        /// Choosing the engine (libheif reads the container too).
        case engine
        /// The pixel limit, checked on the upright size before decoding.
        case limit
        /// Metadata, mark and trailers for the output.
        case graft
        /// Decoding before the output is opened (libheif).
        case decode
        /// Choosing the decoded image's pixel stage: its colour transform (LittleCMS reading
        /// its ICC profile or nclx), the resize, the code mappings.
        case pixels
        /// Encoding and publishing the output (the tile engine decodes here too).
        case write
        /// Computing an Ultra HDR gain map from a tone-mapped image's HDR and SDR renditions.
        case gainMap = "gain-map"
        /// Copying JPEG content that came under a HEIF name.
        case copy
    }

    package let code: ErrorCode
    package let stage: Stage
    package let underlying: any Error

    package init(_ stage: Stage, _ underlying: any Error) {
        self.code = ErrorCode(classifying: underlying)
        self.stage = stage
        self.underlying = underlying
    }

    package var description: String { "\(underlying)" }

    /// Runs one stage, turning what it throws into a `PipelineError` of that stage.
    package static func at<T>(_ stage: Stage, _ body: () throws -> T) throws(PipelineError) -> T {
        do {
            return try body()
        } catch let error as PipelineError {
            throw error
        } catch {
            throw PipelineError(stage, error)
        }
    }
}
