import H2JContainer
import H2JJPEGCodec
import H2JLibheif
import H2JSupport

/// libheif's full decode as a `ConversionEngine`, for everything the tile engine does
/// not take (`LibheifItem` opens it): `decode` applies the transforms and brings more
/// than 8 bits down to 8; rows go to libjpeg in bands of 16.
struct LibheifConversion: ConversionEngine {
    private let item: LibheifItem
    private let monochrome: Bool
    private let background: RGBColor
    /// An auxiliary image (a gain map above all) is encoded without chroma subsampling:
    /// its samples are exponents, not colours.
    private let fullChroma: Bool
    private var image: DecodedImage?

    /// Opens the item's handle; nothing is decoded.
    init(_ conversion: ConversionContext) throws {
        item = try LibheifItem(conversion)
        monochrome = conversion.item.isMonochrome
        background = conversion.options.background
        fullChroma = conversion.master != nil
    }

    var kind: ConversionResult.Engine { .libheif }
    var width: Int { item.handle.width }
    var height: Int { item.handle.height }
    var warnings: [Warning] { image?.warnings ?? [] }

    func libraryMetadata() -> SourceMetadata? { item.metadata() }

    mutating func decode() throws {
        image = try DecodedImage(decoding: item.handle, monochrome: monochrome, background: background)
    }

    func start(_ writer: JPEGWriter, quality: Int) throws {
        let image = try decoded()
        try writer.start(width: image.width, height: image.height, components: image.components,
                         quality: quality, subsampling: fullChroma ? .s444 : .s420)
    }

    func writePixels(to writer: JPEGWriter, mapping: SampleMapping?) throws {
        try decoded().forEachBand { (rows, stride, count) throws(JPEGError) in
            guard let mapping else { return try writer.writeRows(rows, stride: stride, count: count) }
            let mapped = mapping.mapped(rows, stride: stride, count: count)
            try mapped.withUnsafeBufferPointer { (buffer) throws(JPEGError) in try writer.writeRows(buffer.baseAddress!, stride: stride, count: count) }
        }
    }

    private func decoded() throws(LibheifError) -> DecodedImage {
        guard let image else { throw LibheifError(message: "the image was not decoded") }
        return image
    }
}
