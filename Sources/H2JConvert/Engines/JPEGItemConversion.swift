import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JSupport

/// A HEIF `jpeg` item as a `ConversionEngine`: its data already is a JPEG, so the output
/// is that codestream, byte for byte from its tables to its EOI, with the graft's
/// segments in place of its own metadata (`JPEGMarkerFilter.grafting`): lossless, like a
/// copied JPEG. Checked first to decode cleanly (libjpeg), as copies are.
///
/// Only when the item has a rotation, mirror or crop (which no JPEG can state: heic2jpg
/// writes upright pixels with Orientation 1), when it is an auxiliary image written as
/// its luma, or when a pixel step runs, are its pixels decoded by libjpeg, placed upright
/// (`CanvasBands`) and encoded again; a transformed photo says so in a `jpeg-reencoded`
/// warning. As the input of a derived image its pixels are always decoded.
struct JPEGItemConversion: ConversionEngine, UprightBandSource {
    private let coded: JPEGSegments
    private let geometry: PlaneGeometry
    /// Why the pixels are decoded and encoded again; nil for the lossless copy.
    private let reencoding: Reencoding?
    private let quality: Int
    /// A re-encoded photo's chroma subsampling (`--sampling`).
    private let sampling: ChromaSubsampling
    /// An alpha plane (auxiliary image) the item has, which a JPEG cannot apply.
    private let alpha: UInt32?
    /// The item's `ispe` when it is not its codestream's size (the codestream wins).
    private let declared: (id: UInt32, size: ImageSize)?
    private var canvas: DecodedJPEG?

    private enum Reencoding {
        /// A photo with transforms: RGB (or gray) as coded, a warning.
        case transforms(String)
        /// An auxiliary image: its luma, without chroma subsampling.
        case auxiliary
        /// The pixel stage changes the pixels: RGB (or gray) as coded, no warning.
        case pixelStage
    }

    /// Reads the codestream (`jpgC` prefix and item data) and its frame header; nothing
    /// is decoded. Throws when the data is no JPEG or its transforms cannot apply.
    /// `pixelsChange`: a pixel step runs, so the codestream cannot stand for the pixels.
    init(_ context: ConversionContext, pixelsChange: Bool) throws {
        let id = context.item.id
        let bytes = try context.structure.jpegCodestream(of: id, from: context.source)
        guard let codestream = JPEGSegments(bytes), let frame = codestream.frameHeader, frame.width > 0, frame.height > 0 else {
            throw JPEGItemError(item: id, reason: "its data is not a JPEG with a readable header (SOI, segments, frame header)")
        }
        self.coded = codestream
        let transforms = try context.structure.transforms(of: id)
        do {
            geometry = try PlaneGeometry(canvasWidth: frame.width, canvasHeight: frame.height, transforms: transforms)
        } catch {
            throw JPEGItemError(item: id, reason: error.description)
        }
        let identity = PlaneGeometry(canvasWidth: frame.width, canvasHeight: frame.height)
        if context.master != nil {
            reencoding = .auxiliary
        } else if geometry != identity {
            reencoding = .transforms(Self.describe(transforms))
        } else {
            reencoding = pixelsChange ? .pixelStage : nil
        }
        quality = context.options.quality
        sampling = context.colourSampling
        alpha = context.master == nil ? context.structure.auxiliaryImages(of: id).first { $0.kind == .alpha }?.id : nil
        let declared = context.structure.imageSize(of: id)
        self.declared = declared.flatMap { $0 == ImageSize(width: frame.width, height: frame.height) ? nil : (id, $0) }
    }

    var kind: ConversionResult.Engine { .jpeg }
    var width: Int { geometry.width }
    var height: Int { geometry.height }

    var warnings: [Warning] {
        var warnings: [Warning] = []
        if case .transforms(let what) = reencoding {
            warnings.append(Warning(.jpegReencoded, "the JPEG item's \(what) cannot be applied to its codestream losslessly: "
                                    + "its pixels were decoded and encoded again at quality \(quality)"))
        }
        if let (id, size) = declared {
            warnings.append(Warning(.declaredSizeMismatch, "item \(id)'s 'ispe' says \(size.width)×\(size.height) "
                                    + "but its JPEG codestream is \(geometry.canvasWidth)×\(geometry.canvasHeight)"))
        }
        if let alpha {
            warnings.append(Warning(.alphaNotApplied, "the JPEG item's alpha plane (item \(alpha)) is not flattened into its pixels: "
                                    + "the codestream is written as it is"))
        }
        return warnings
    }

    func libraryMetadata() -> SourceMetadata? { nil }

    /// The codestream's own EXIF (as a HEIF `Exif` item: a zero TIFF offset, then the
    /// TIFF bytes), XMP and ICC profile.
    var embeddedMetadata: SourceMetadata? {
        SourceMetadata(exif: coded.exifTIFF.map { [0, 0, 0, 0] + $0 }, xmp: coded.xmpPacket, icc: coded.iccProfile)
    }

    mutating func decode() throws {
        guard reencoding != nil else {
            if let problem = JPEGCheck(coded.bytes).problem { throw CorruptJPEGError(reason: problem) }
            return
        }
        try decodePixels()
    }

    /// libjpeg's decode of the codestream, whatever the output would be.
    mutating func decodePixels() throws {
        let decoded = try DecodedJPEG(coded.bytes)
        guard decoded.width == geometry.canvasWidth, decoded.height == geometry.canvasHeight else {
            throw CorruptJPEGError(reason: "it decodes to \(decoded.width)×\(decoded.height), its frame header says "
                                   + "\(geometry.canvasWidth)×\(geometry.canvasHeight)")
        }
        canvas = decoded
    }

    func pixelFormat() throws -> PixelFormat {
        PixelFormat(width: width, height: height,
                    layout: .rows(components: try bands().components, subsampling: reencodingAuxiliary ? .s444 : sampling))
    }

    func emit(into sink: any PixelSink) throws {
        try bands().write(to: sink)
    }

    /// The item's own codestream, copied with the graft's segments, unless re-encoded.
    var codestream: JPEGSegments? { reencoding == nil ? coded : nil }

    private var reencodingAuxiliary: Bool {
        if case .auxiliary = reencoding { return true }
        return false
    }

    private func bands() throws(JPEGItemError) -> CanvasBands {
        guard let canvas else { throw JPEGItemError(item: 0, reason: "the image was not decoded") }
        return CanvasBands(canvas: canvas, geometry: geometry, components: reencodingAuxiliary ? 1 : canvas.components)
    }

    /// `clap`, `irot`, `imir` in words, in order.
    private static func describe(_ transforms: [ImageTransform]) -> String {
        let names = transforms.map { transform -> String in
            switch transform {
            case .cleanAperture: "crop ('clap')"
            case .rotation: "rotation ('irot')"
            case .mirror: "mirror ('imir')"
            }
        }
        return names.joined(separator: " and ")
    }
}

extension PlaneGeometry {
    /// The whole canvas, untouched.
    init(canvasWidth: Int, canvasHeight: Int) {
        // No transform cannot be refused.
        self = (try? PlaneGeometry(canvasWidth: canvasWidth, canvasHeight: canvasHeight, transforms: []))!
    }
}

/// A JPEG item that cannot be converted.
struct JPEGItemError: Error, CustomStringConvertible {
    let item: UInt32
    let reason: String
    var description: String { "JPEG item \(item): \(reason)" }
}

extension Warning.Code {
    /// A JPEG item's transforms made heic2jpg decode and encode it again instead of copying it.
    static let jpegReencoded = Warning.Code("jpeg-reencoded")
    /// A JPEG item's alpha plane was not applied to its pixels.
    static let alphaNotApplied = Warning.Code("alpha-not-applied")
}

extension JPEGItemError: CodedError {
    var code: ErrorCode { .corruptJPEG }
}
