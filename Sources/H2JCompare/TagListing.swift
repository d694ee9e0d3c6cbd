import H2JContainer
import H2JJPEG
import H2JMetadata

/// Every EXIF, XMP and ICC tag of a source or an output, for `compare --html`'s table:
/// read by heic2jpg's own parsers, from the HEIF's metadata items or from the JPEG's own
/// segments (so an output is described by what it holds). An EXIF block that cannot be
/// read is one row saying why.
enum TagListing {
    static func source(_ items: SourceMetadata) -> [MetadataTag] {
        list(exif: items.exif.map { item in Result { () throws(EXIFError) in try EXIFDirectory(heifExifItem: item) } },
             xmp: items.xmp, icc: items.icc)
    }

    static func jpeg(_ jpeg: [UInt8]) -> [MetadataTag] {
        guard let segments = JPEGSegments(jpeg) else { return [] }
        return list(exif: segments.exifTIFF.map { tiff in Result { () throws(EXIFError) in try EXIFDirectory(tiff: tiff) } },
                    xmp: segments.xmpPacket, icc: segments.iccProfile)
    }

    private static func list(exif: Result<EXIFDirectory, EXIFError>?, xmp: [UInt8]?, icc: [UInt8]?) -> [MetadataTag] {
        var tags: [MetadataTag] = []
        switch exif {
        case .success(let directory): tags += EXIFListing.tags(directory)
        case .failure(let error): tags.append(MetadataTag(family: "EXIF", group: "block", name: "unreadable", value: "\(error)"))
        case nil: break
        }
        return tags + (xmp.map(XMPListing.tags) ?? []) + (icc.map(ICCListing.tags) ?? [])
    }
}
