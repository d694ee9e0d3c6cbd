import H2JContainer
import H2JBatch
import H2JJob
import H2JJPEG
import H2JMetadata

/// The metadata one image carries, as `compare` reports it for a source and for each
/// output: EXIF entries by (IFD, tag), the GPS IFD, the maker note, and the XMP and ICC
/// sizes. Built from the HEIF source's metadata items, or read back from a JPEG's own
/// segments (so an output is described by what it holds, not by what was intended).
struct MetadataSummary: Equatable, Sendable {
    /// True when there is an EXIF block, readable or not.
    var exif = false
    var exifTags: Set<EXIFTagKey> = []
    /// Why an EXIF block that is there could not be read.
    var exifProblem: String?
    /// Entries in the GPS IFD; nil when there is no GPS IFD.
    var gpsTags: Int?
    /// Size of the maker note (ExifIFD 0x927C) value; nil when there is none.
    var makerNoteBytes: Int?
    /// Size of the XMP packet; nil when there is none.
    var xmpBytes: Int?
    /// Size of the ICC profile; nil when there is none.
    var iccBytes: Int?

    /// `exif` is a parsed EXIF block, or the error that stopped parsing.
    init(exif: Result<EXIFDirectory, EXIFError>?, xmp: [UInt8]?, icc: [UInt8]?) {
        switch exif {
        case .success(let directory):
            self.exif = true
            exifTags = directory.tagKeys
            gpsTags = directory.ifd(.gps)?.entries.count
            makerNoteBytes = directory.entry(.exif, EXIFTag.makerNote).map { $0.valueRange?.count ?? $0.byteLength ?? 0 }
        case .failure(let error):
            self.exif = true
            exifProblem = "\(error)"
        case nil:
            break
        }
        xmpBytes = xmp?.count
        iccBytes = icc?.count
    }

    /// A HEIF source: its `Exif` item (TIFF header located by `TIFFHeaderLocator`), XMP
    /// packet and ICC profile (the one the converter writes, built from nclx if need be).
    init(source: SourceMetadata) {
        self.init(exif: source.exif.map { item in Result { () throws(EXIFError) in try EXIFDirectory(heifExifItem: item) } },
                  xmp: source.xmp, icc: source.icc)
    }

    /// A JPEG: its first APP1 `Exif` and XMP segments and its APP2 ICC chunks. A JPEG
    /// whose header segments cannot be walked reports `exifProblem` and nothing else.
    init(jpeg: [UInt8]) {
        guard let segments = JPEGSegments(jpeg) else {
            self.init(exif: nil, xmp: nil, icc: nil)
            exifProblem = "the JPEG's header segments cannot be read"
            return
        }
        self.init(exif: segments.exifTIFF.map { tiff in Result { () throws(EXIFError) in try EXIFDirectory(tiff: tiff) } },
                  xmp: segments.xmpPacket, icc: segments.iccProfile)
    }
}
