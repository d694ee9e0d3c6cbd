import H2JContainer
import H2JJob
import H2JSupport

/// `--thumbnail`: the primary's embedded thumbnail (`thmb`) taken in its place when it
/// has at least the pixels the box would give the primary (scaling it would not
/// enlarge it), the primary's upright aspect ratio within 1 %, and no letterbox (flat
/// bars along both of two opposite edges, as Sony's and Canon's 16:9 thumbnails in 4:3
/// have; it is decoded to see, as a stage that names its item, so a worker that dies
/// on it runs the job again without it). Otherwise the primary is scaled.
enum EmbeddedThumbnail {
    /// The thumbnail's context and what the report says of it, or nil to scale the primary.
    static func chosen(for context: ConversionContext, box: OutputBox, stages: ImageStages) -> (context: ConversionContext, note: String)? {
        let structure = context.structure, primary = context.item.id
        guard let size = context.uprightSize(of: primary) else { return nil }
        let target = box.fitting(width: size.width, height: size.height) ?? size
        let thumbnails = structure.references.filter { $0.type == "thmb" && $0.to.contains(primary) }.map(\.from)
        for id in thumbnails where !context.job.omittedImages.contains(where: { $0.item == id }) {
            guard let thumbnail = context.uprightSize(of: id),
                  max(thumbnail.width, thumbnail.height) >= max(target.width, target.height),
                  abs(thumbnail.width * size.height - size.width * thumbnail.height) * 100 <= size.width * thumbnail.height,
                  let item = try? structure.thumbnailImage(id), (try? structure.checkCodecs(of: id)) != nil,
                  (try? structure.checkDerivation(of: id, from: context.source, maxPixels: context.options.maxPixels)) != nil,
                  let pixels = try? stages.at(.decode, engine: .libheif, image: id, { try decoded(id, of: context) }), !letterboxed(pixels)
            else { continue }
            return (context.converting(thumbnail: item), "the embedded thumbnail (item \(id), \(thumbnail.width)×\(thumbnail.height)) in place of the primary")
        }
        return nil
    }

    /// Thumbnail `id` decoded upright by libheif, as an HEIF of its own.
    private static func decoded(_ id: UInt32, of context: ConversionContext) throws -> Raster? {
        var engine = try LibheifConversion(try context.standalone(id))
        try LimitError.check(width: engine.width, height: engine.height, maxPixels: context.options.maxPixels)
        try engine.decode()
        return try engine.heldPixels()
    }

    /// Whether both top and bottom rows, or both left and right columns, are flat bars.
    static func letterboxed(_ raster: Raster) -> Bool {
        let (w, h) = (raster.width, raster.height)
        guard w > 4, h > 4 else { return false }
        func flat(_ points: [(Int, Int)]) -> Bool {
            for c in 0..<raster.components {
                let samples = points.map { raster.pixels[($0.1 * w + $0.0) * raster.components + c] }
                guard let low = samples.min(), let high = samples.max(), Int(high) - Int(low) <= 24 else { return false }
            }
            return true
        }
        func rows(_ ys: [Int]) -> [(Int, Int)] { ys.flatMap { y in (0..<w).map { ($0, y) } } }
        func columns(_ xs: [Int]) -> [(Int, Int)] { xs.flatMap { x in (0..<h).map { (x, $0) } } }
        return (flat(rows([0, 1])) && flat(rows([h - 2, h - 1]))) || (flat(columns([0, 1])) && flat(columns([w - 2, w - 1])))
    }
}
