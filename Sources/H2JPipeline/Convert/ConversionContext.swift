import H2JContainer
import H2JSupport

/// One image item on its way through the converter's stages: the job, the source's
/// bytes and its parsed container, and the item being converted. Built by the parse
/// stage; every later stage reads it.
struct ConversionContext {
    let job: Job
    let options: ConversionOptions
    /// The source's bytes: read through the file's descriptor, or memory for stdin.
    let source: ByteSource
    /// The open source file (nil for stdin). It owns the descriptor `source` reads
    /// through, so the context keeps it open until the last tile is read; its times go
    /// onto the output.
    let file: SourceFile?
    let structure: HEIFStructure
    /// The image item converted: the primary, another still image, or an auxiliary image.
    let item: ImageItem
    /// For an auxiliary image (`--aux`), the image it belongs to; nil otherwise.
    var master: UInt32? = nil
    /// The auxiliary images this source's outputs carry (`--aux`): their metadata is not
    /// said to be lost.
    var carriedAuxiliaries: Set<UInt32> = []

    /// The name the provenance mark records: the source's file name, or `-` for stdin.
    var sourceName: String { job.source.fileName }
}
