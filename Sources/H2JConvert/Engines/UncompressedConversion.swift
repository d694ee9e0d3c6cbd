import H2JBrotli
import H2JContainer
import H2JJob
import H2JSupport
import H2JUncompressed
import H2JZlib

/// An uncompressed (`unci`, ISO/IEC 23001-17) image as a `ConversionEngine`: heic2jpg's
/// own decoder (`UncompressedImage`) turns the item's data, inflated by zlib or
/// libbrotli when it is generically compressed, into an 8-bit gray or RGB raster, alpha
/// flattened onto `--background`; `CanvasBands` writes it upright (`irot`, `imir`, `clap`)
/// into the sink. The whole image is decoded before the output is opened, as with libheif.
struct UncompressedConversion: ConversionEngine {
    private let image: UncompressedImage
    private let geometry: PlaneGeometry
    private let context: ConversionContext
    private var raster: Raster?

    /// Reads the layout, compression and transforms; nothing is decoded.
    init(_ context: ConversionContext) throws {
        let id = context.item.id
        image = try UncompressedImage(context.structure, item: id)
        guard image.width <= ConversionOptions.maxDimension, image.height <= ConversionOptions.maxDimension else {
            throw HEIFError.limitExceeded("image item \(id) is \(image.width)×\(image.height); a JPEG holds at most "
                                          + "\(ConversionOptions.maxDimension) pixels a side")
        }
        do {
            geometry = try PlaneGeometry(canvasWidth: image.width, canvasHeight: image.height,
                                         transforms: try context.structure.transforms(of: id))
        } catch let refusal as PlaneGeometry.Refusal {
            throw UncompressedError.malformed(refusal.description)
        }
        self.context = context
    }

    var kind: ConversionResult.Engine { .uncompressed }
    var width: Int { geometry.width }
    var height: Int { geometry.height }
    var warnings: [Warning] { [] }
    func libraryMetadata() -> SourceMetadata? { nil }

    /// Called after the pixel limit was checked on the upright size.
    mutating func decode() throws {
        let data = try context.structure.itemData(context.item.id, from: context.source, maxBytes: Self.maxItemBytes)
        raster = try image.decode(data, decompress: Self.decompress, nclx: SourceMetadata.nclx(context.structure, context.item.id),
                                  background: context.options.background)
    }

    func pixelFormat() -> PixelFormat {
        PixelFormat(width: width, height: height, layout: .rows(components: components, subsampling: context.master != nil ? .s444 : context.colourSampling))
    }

    func emit(into sink: any PixelSink) throws {
        guard let raster else { throw UncompressedError.malformed("the image was not decoded") }
        try CanvasBands(canvas: raster, geometry: geometry, components: components).write(to: sink)
    }

    /// Gray for a gray image and for an auxiliary one (its luma), else RGB.
    private var components: Int { context.master != nil ? 1 : image.components }

    /// The most bytes an uncompressed item may hold, compressed or not: 16-bit RGBA at
    /// 128 MP; a larger file is refused before it is read.
    static let maxItemBytes = 1 << 30

    /// zlib for deflate and zlib streams, libbrotli for Brotli.
    static func decompress(_ method: GenericCompression.Method, _ data: ArraySlice<UInt8>, _ maxBytes: Int) throws -> [UInt8] {
        switch method {
        case .deflate: try Inflate.inflate(data, framing: .deflate, maxBytes: maxBytes)
        case .zlib: try Inflate.inflate(data, framing: .zlib, maxBytes: maxBytes)
        case .brotli: try BrotliDecoding.decompress(data, maxBytes: maxBytes)
        }
    }
}

extension UncompressedConversion: UprightBandSource {}
