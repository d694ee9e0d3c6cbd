import H2JContainer
import H2JSupport

/// One image item on its way through the converter's stages: the job, the source's
/// bytes and its parsed container, and the item being converted. Built by the parse
/// stage; every later stage reads it.
struct ConversionContext {
    let job: Job
    let options: ConversionOptions
    /// The container the stages read: the source's bytes, or for a `mini` file the
    /// ordinary HEIF it stands for (`MinimizedImage.translating`).
    let source: ByteSource
    /// The source's own bytes, read through the file's descriptor, or memory for stdin:
    /// what the provenance mark's digest is of.
    let fileBytes: ByteSource
    /// The open source file (nil for stdin). It owns the descriptor `source` reads
    /// through, so the context keeps it open until the last tile is read; its times go
    /// onto the output.
    let file: SourceFile?
    let structure: HEIFStructure
    /// The image item converted (the primary).
    let item: PrimaryImage

    /// The name the provenance mark records: the source's file name, or `-` for stdin.
    var sourceName: String { job.source.fileName }
}
