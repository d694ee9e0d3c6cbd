import H2JContainer
import H2JJPEGCodec
import H2JLibheif
import H2JSupport

/// libheif's full decode as a `ConversionEngine`, for everything the tile engine does
/// not take: libheif reads the source through our `ByteSource` (the descriptor already
/// open, or stdin's bytes), with its size limits set; `decode` applies the transforms
/// and brings HDR to 8 bits; rows go to libjpeg in bands of 16.
struct LibheifConversion: ConversionEngine {
    private let context: LibheifContext
    private let handle: LibheifHandle
    private let monochrome: Bool
    private let background: RGBColor
    /// An auxiliary image (a gain map above all) is encoded without chroma subsampling:
    /// its samples are exponents, not colours.
    private let fullChroma: Bool
    private var image: DecodedImage?

    /// Reads the container with libheif and opens the item's handle; nothing is decoded.
    init(_ conversion: ConversionContext) throws {
        context = LibheifContext(maxDimension: ConversionOptions.maxDimension,
                                 decodingThreads: conversion.options.decodingThreads)
        try context.read(conversion.source)
        let id = conversion.item.id, primaryID = conversion.structure.primaryID
        if let master = conversion.master {
            // libheif reaches an auxiliary image only through the image it belongs to.
            let owner = master == primaryID ? try context.primaryHandle() : try context.imageHandle(master)
            handle = try owner.auxiliaryHandle(id)
        } else {
            handle = id == primaryID ? try context.primaryHandle() : try context.imageHandle(id)
        }
        monochrome = conversion.item.isMonochrome
        background = conversion.options.background
        fullChroma = conversion.master != nil
    }

    var kind: ConversionResult.Engine { .libheif }
    var width: Int { handle.width }
    var height: Int { handle.height }
    var warnings: [Warning] { image?.warnings ?? [] }

    func libraryMetadata() -> SourceMetadata? {
        SourceMetadata(exif: handle.metadata(type: "Exif").first,
                       xmp: handle.metadata(type: "mime", contentType: SourceMetadata.xmpContentType).first,
                       icc: handle.iccProfile())
    }

    mutating func decode() throws {
        image = try DecodedImage(decoding: handle, monochrome: monochrome, background: background)
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
