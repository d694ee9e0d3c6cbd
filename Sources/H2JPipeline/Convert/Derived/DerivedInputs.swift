import H2JContainer
import H2JSupport

/// The coded inputs of a derived image (`Composition.pictures`), each opened by its own
/// engine as the primary of an HEIF of its own (`ConversionContext.standalone`, so a
/// hidden item is decoded like any file): a JPEG item's codestream by libjpeg, an
/// uncompressed image by heic2jpg's reader, HEVC and AV1 (and grids of them) by libheif.
/// Each is decoded whole and upright, one after the other, into a `Raster`, with its
/// alpha plane beside it (decoded the same way), to be blended where it is painted; its
/// engine is released before the next is decoded.
final class DerivedInputs {
    private let context: ConversionContext
    private var engines: [UInt32: any UprightBandSource] = [:]
    /// What decoding the inputs left to say, each naming its item.
    private(set) var warnings: [Warning] = []

    init(_ context: ConversionContext) {
        self.context = context
    }

    /// Opens input `id` (nothing is decoded) and returns its upright size, checked
    /// against the pixel limit.
    func open(_ id: UInt32) throws -> (width: Int, height: Int) {
        var input = try context.standalone(id)
        input.fullChroma = false
        let engine: any UprightBandSource = switch input.item.itemType {
        case "jpeg": try JPEGItemConversion(input)
        case "unci": try UncompressedConversion(input)
        default: try LibheifConversion(input)
        }
        try checkLimit(engine)
        engines[id] = engine
        return (engine.width, engine.height)
    }

    private func checkLimit(_ engine: any ConversionEngine) throws {
        let (pixels, overflow) = engine.width.multipliedReportingOverflow(by: engine.height)
        guard engine.width > 0, engine.height > 0, !overflow, pixels <= context.options.maxPixels else {
            throw LimitError(width: engine.width, height: engine.height, maxPixels: context.options.maxPixels)
        }
    }

    /// Decodes every picture, in order, each at the size it was opened with, with its
    /// alpha plane when it has one.
    func decode(_ pictures: [Composition.Picture]) throws -> [Composition.Input] {
        try pictures.map { picture in
            guard let engine = engines.removeValue(forKey: picture.item) else {
                throw HEIFError.unusableImage(id: picture.item, reason: "an input of a derived image that was not opened")
            }
            let pixels = try raster(engine, picture.item, width: picture.width, height: picture.height)
            var input = Composition.Input(pixels: pixels)
            if let alpha = context.structure.auxiliaryImages(of: picture.item).first(where: { $0.kind == .alpha })?.id {
                input.alpha = try self.alpha(alpha, of: picture)
                input.premultiplied = context.structure.references.contains { $0.type == "prem" && $0.from == picture.item }
            }
            return input
        }
    }

    /// Alpha plane `id` of `picture`, decoded gray and placed by the picture's own
    /// transforms, as libheif places an image's alpha; nil, with a warning, when its size
    /// is not the picture's before them.
    private func alpha(_ id: UInt32, of picture: Composition.Picture) throws -> Raster? {
        var alpha = try context.standalone(id)
        alpha.fullChroma = true
        let engine = try LibheifConversion(alpha)
        try checkLimit(engine)
        let geometry: PlaneGeometry? = try? PlaneGeometry(canvasWidth: engine.width, canvasHeight: engine.height,
                                                          transforms: context.structure.transforms(of: picture.item))
        guard let geometry, geometry.width == picture.width, geometry.height == picture.height else {
            warnings.append(Warning(.alphaNotApplied, "input item \(picture.item): its \(engine.width)×\(engine.height) alpha plane "
                                    + "(item \(id)) does not fit its pixels and is not applied"))
            return nil
        }
        let plane = try raster(engine, id, width: engine.width, height: engine.height, gray: true)
        guard let placed = Raster(width: picture.width, height: picture.height, components: 1) else { return nil }
        var row = 0
        CanvasBands(canvas: plane, geometry: geometry, components: 1).forEachBand { rows, stride, count in
            for r in 0..<count { placed.mutableRow(row + r).update(from: rows + r * stride, count: picture.width) }
            row += count
        }
        return placed
    }

    /// `engine`'s decoded pixels (item `item`), which must be `width` × `height`; gray
    /// (the first of equal channels) when `gray`. Its warnings join `warnings`.
    private func raster(_ engine: any UprightBandSource, _ item: UInt32, width: Int, height: Int, gray: Bool = false) throws -> Raster {
        var engine = engine
        try engine.decodePixels()
        let from = try engine.uprightComponents()
        let components = gray ? 1 : from
        guard let raster = Raster(width: width, height: height, components: components) else {
            throw HEIFError.limitExceeded("input item \(item) is \(width)×\(height)")
        }
        var row = 0
        try engine.forEachUprightBand { rows, stride, count in
            guard stride >= width * from, row + count <= height else {
                throw HEIFError.unusableImage(id: item, reason: "an input of a derived image decodes to other than its \(width)×\(height) pixels")
            }
            for r in 0..<count {
                let source = rows + r * stride, target = raster.mutableRow(row + r)
                if components == from {
                    target.update(from: source, count: width * from)
                } else {
                    for x in 0..<width { target[x] = source[x * from] }
                }
            }
            row += count
        }
        guard row == height else {
            throw HEIFError.unusableImage(id: item, reason: "an input of a derived image decodes to \(row) rows, not \(height)")
        }
        warnings += engine.warnings.map { Warning($0.code, "input item \(item): \($0.message)") }
        return raster
    }
}
