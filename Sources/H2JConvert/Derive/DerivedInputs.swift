import H2JCompose
import H2JContainer
import H2JSupport

/// The coded inputs of a derived image (`Composition.pictures`), each opened by its own
/// engine as the primary of an HEIF of its own (`ConversionContext.standalone`, so a
/// hidden item is decoded like any file): a JPEG item's codestream by libjpeg, an
/// uncompressed image by heic2jpg's reader, HEVC and AV1 (and grids of them) by libheif,
/// with the item's alpha plane, kept apart as libheif hands it out. Each is opened once
/// to learn its size while the composition is planned, then again to be decoded whole
/// and upright into `Raster`s, one after the other: one engine is open at a time, however
/// many inputs a file has.
final class DerivedInputs {
    private let context: ConversionContext
    /// What decoding the inputs left to say, each naming its item.
    private(set) var warnings: [Warning] = []

    init(_ context: ConversionContext) {
        self.context = context
    }

    /// Input `id`'s upright size, checked against the pixel limit; nothing is decoded.
    func open(_ id: UInt32) throws -> (width: Int, height: Int) {
        let engine = try engine(id)
        return (engine.width, engine.height)
    }

    /// Input `id`'s engine, opened; its size within the pixel limit.
    private func engine(_ id: UInt32) throws -> any UprightBandSource {
        let type = context.structure.items[id]?.type
        var input = try context.standalone(id, alpha: type != "jpeg" && type != "unci")
        input.fullChroma = false
        let engine: any UprightBandSource = switch type {
        case "jpeg": try JPEGItemConversion(input, pixelsChange: false)
        case "unci": try UncompressedConversion(input)
        default: try LibheifConversion(input, keepingAlpha: true)
        }
        try LimitError.check(width: engine.width, height: engine.height, maxPixels: context.options.maxPixels)
        return engine
    }

    /// Decodes every picture, in order, each at the size it was opened with, with its
    /// alpha plane when it has one.
    func decode(_ pictures: [Composition.Picture]) throws -> [Composition.Input] {
        try pictures.map { picture in
            var engine = try engine(picture.item)
            try engine.decodePixels()
            let pixels = try Self.sized(try engine.heldPixels(), picture)
            var alpha: Raster?
            let hasAlpha = try engine.forEachUprightAlphaBand { _, _, _ in }
            if hasAlpha {
                alpha = try Self.sized(try Raster.gathering(width: picture.width, height: picture.height, components: 1) { body in
                    _ = try engine.forEachUprightAlphaBand(body)
                }, picture)
            }
            warnings += engine.warnings.map { Warning($0.code, "input item \(picture.item): \($0.message)") }
            return Composition.Input(pixels: pixels, alpha: alpha, premultiplied: engine.alphaPremultiplied)
        }
    }

    /// `raster`, which must be `picture`'s size: what the composition was planned with.
    private static func sized(_ raster: Raster?, _ picture: Composition.Picture) throws -> Raster {
        guard let raster, raster.width == picture.width, raster.height == picture.height else {
            throw HEIFError.unusableImage(id: picture.item, reason: "an input of a derived image decodes to other than its "
                                          + "\(picture.width)×\(picture.height) pixels")
        }
        return raster
    }
}
