import H2JContainer
import H2JJob
import H2JLibheif

/// One image item opened with libheif, nothing decoded yet: libheif reads the source
/// through our `ByteSource` (the descriptor already open, or stdin's bytes) with its size
/// limits set, and the item's handle is found the only way libheif allows (an auxiliary
/// image through the image it belongs to). Shared by the engines that decode with libheif.
struct LibheifItem {
    /// Owns what `handle` points into; kept alive with it.
    private let context: LibheifContext
    let handle: LibheifHandle
    /// The item's transforms when libheif 1.15 cannot apply them: it mirrors only 8-bit
    /// images, so an image of more bits with an `imir` is decoded untransformed and placed
    /// upright by the engine (`PlaneGeometry`); nil when libheif applies them.
    let ownTransforms: [ImageTransform]?

    init(_ conversion: ConversionContext) throws {
        context = LibheifContext(maxDimension: ConversionOptions.maxDimension,
                                 decodingThreads: conversion.options.decodingThreads)
        try context.read(conversion.source)
        let id = conversion.item.id, primaryID = conversion.structure.primaryID
        if let master = conversion.master {
            let owner = master == primaryID ? try context.primaryHandle() : try context.imageHandle(master)
            handle = try owner.auxiliaryHandle(id)
        } else {
            handle = id == primaryID ? try context.primaryHandle() : try context.imageHandle(id)
        }
        let transforms = try conversion.structure.transforms(of: id)
        let mirrors = transforms.contains { if case .mirror = $0 { true } else { false } }
        ownTransforms = mirrors && handle.lumaBitDepth > 8 ? transforms : nil
    }

    /// The item's metadata as libheif reads it.
    func metadata() -> SourceMetadata {
        SourceMetadata(exif: handle.metadata(type: "Exif").first,
                       xmp: handle.metadata(type: "mime", contentType: SourceMetadata.xmpContentType).first,
                       icc: handle.iccProfile())
    }
}
