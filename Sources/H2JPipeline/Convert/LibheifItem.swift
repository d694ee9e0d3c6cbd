import H2JContainer
import H2JLibheif

/// One image item opened with libheif, nothing decoded yet: libheif reads the source
/// through our `ByteSource` (the descriptor already open, or stdin's bytes) with its size
/// limits set, and the item's handle is found the only way libheif allows (an auxiliary
/// image through the image it belongs to). Shared by the engines that decode with libheif.
struct LibheifItem {
    /// Owns what `handle` points into; kept alive with it.
    private let context: LibheifContext
    let handle: LibheifHandle

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
    }

    /// The item's metadata as libheif reads it.
    func metadata() -> SourceMetadata {
        SourceMetadata(exif: handle.metadata(type: "Exif").first,
                       xmp: handle.metadata(type: "mime", contentType: SourceMetadata.xmpContentType).first,
                       icc: handle.iccProfile())
    }
}
