import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JSupport

/// One image item on its way through the converter's stages: the job, the source's
/// bytes and its parsed container, and the item being converted. Built by the parse
/// stage; every later stage reads it.
struct ConversionContext {
    let job: ConversionJob
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
    /// The image item converted: the primary, another still image, or an auxiliary image.
    private(set) var item: ImageItem
    /// For an auxiliary image (`--aux`), the image it belongs to; nil otherwise.
    var master: UInt32? = nil
    /// For an embedded thumbnail taken in place of its image (`--thumbnail`), that image.
    private(set) var thumbnailOf: UInt32?
    /// Encoded without chroma subsampling, its colour only when its channels differ
    /// (`LibheifConversion`): an auxiliary image or a gain map, whose samples are not
    /// colours but exponents or distances.
    var fullChroma = false
    /// The chroma subsampling of the image's colour output when its engine writes rows:
    /// `--sampling` for a photo; 4:2:0 as always for an auxiliary image or gain map, which
    /// keeps its own (most engines write those at 4:4:4 or in gray themselves).
    var colourSampling: ChromaSubsampling { fullChroma ? .s420 : options.sampling }
    /// The auxiliary images this source's outputs carry (`--aux`): their metadata is not
    /// said to be lost.
    var carriedAuxiliaries: Set<UInt32> = []
    /// The gain map that takes the primary, an HDR base, to its SDR rendition, when the
    /// source has one and it decoded (`Converter.appliedGainMap`).
    var appliedGainMap: AppliedGainMap?

    /// The name the provenance mark records: the source's file name, or `-` for stdin.
    var sourceName: String { job.source.fileName }

    /// The same file, for another of its image items (`master`: the image an auxiliary
    /// image belongs to).
    func converting(_ item: ImageItem, master: UInt32? = nil) -> ConversionContext {
        var context = self
        context.item = item
        context.master = master
        context.fullChroma = master != nil
        return context
    }

    /// The pixel stage's role of an image that is scaled with image item `id` (a gain map
    /// with the primary, an auxiliary image with its image), by `id`'s declared upright
    /// size; kept at its own size when that is unknown.
    func role(scaledWith id: UInt32) -> PixelStage.Role {
        let size = uprightSize(of: id)
        return .scaledWith(width: size?.width ?? 0, height: size?.height ?? 0)
    }

    /// Image item `id`'s size after its transforms, from its `ispe`; nil when unknown.
    func uprightSize(of id: UInt32) -> (width: Int, height: Int)? {
        guard let size = structure.imageSize(of: id), let transforms = try? structure.transforms(of: id),
              let geometry = try? PlaneGeometry(canvasWidth: size.width, canvasHeight: size.height, transforms: transforms)
        else { return nil }
        return (geometry.width, geometry.height)
    }

    /// This image's embedded thumbnail (`--thumbnail`) in its place: its pixels, this
    /// image's metadata (`metadataItem`).
    func converting(thumbnail: ImageItem) -> ConversionContext {
        var context = converting(thumbnail)
        context.thumbnailOf = item.id
        return context
    }

    /// The item whose metadata (EXIF, XMP, ICC, vendor trailer) the output carries: the
    /// image's own, or the primary's when its thumbnail stands in for it.
    var metadataItem: UInt32 { thumbnailOf ?? item.id }

    /// Image item `id` of this file as the primary of an HEIF of its own
    /// (`HEIFStructure.standaloneImage`), which both engines read like any file: how a
    /// gain map is decoded, since libheif 1.15 reaches none that is only a `tmap` input.
    /// Encoded as `fullChroma`; the provenance, times and file stay the source's. With
    /// `alpha`, the item's alpha plane comes along (a derived image's layer); `transforms`
    /// apply after the item's own (a gain map's `inheritedTransforms`).
    func standalone(_ id: UInt32, alpha: Bool = false, adding transforms: [ImageTransform] = []) throws -> ConversionContext {
        let source = try structure.standaloneImage(id, in: self.source, alpha: alpha, adding: transforms)
        let structure = try HEIFStructure.read(from: source)
        var context = ConversionContext(job: job, options: options, source: source, fileBytes: fileBytes, file: file,
                                        structure: structure, item: try structure.primaryImage())
        context.fullChroma = true
        return context
    }
}
