/// What `heic2jpg inspect` reports about one file, in the spirit of ImageIO's
/// `CGImageSourceCopyPropertiesAtIndex`: the container, its images, how the primary
/// image is coded and coloured, key EXIF fields, which metadata it carries, and the
/// heic2jpg provenance mark. Built by `HEIFDescriber` or `JPEGDescriber` from the file's
/// bytes alone (no pixel is decoded); rendered by `InspectText` and `InspectJSON`.
public struct ImageProperties: Sendable, Equatable {
    /// `heif`, `avif` or `jpeg`.
    public var format: String
    public var byteSize: Int
    /// HEIF only: `ftyp` major brand and compatible brands.
    public var brands: Brands?
    /// Every image the file shows a reader (HEIF: not the hidden tiles of a grid).
    public var images: [Image] = []
    public var primary: Primary?
    /// Key EXIF fields by ImageIO dictionary: `{TIFF}`, `{Exif}`, `{GPS}` (empty groups omitted).
    public var exifGroups: [EXIFGroup] = []
    /// Sizes of the metadata the file carries (for the primary image).
    public var metadata = MetadataSizes()
    /// The heic2jpg mark in the XMP, when there is a valid one.
    public var provenance: ProvenanceMark?
    /// Problems that did not stop the description (unreadable EXIF, cut ICC, …).
    public var warnings: [String] = []

    public struct Brands: Sendable, Equatable {
        public var major: String
        public var compatible: [String]
    }

    /// One image of the file.
    public struct Image: Sendable, Equatable {
        /// HEIF item ID; nil for JPEG.
        public var id: UInt32?
        /// HEIF item type (`hvc1`, `grid`, `av01`, …) or `jpeg`.
        public var type: String
        /// Coded size (`ispe`, or the JPEG frame size).
        public var size: ImageSize?
        /// Size after `clap` and `irot`, as a viewer shows it.
        public var displaySize: ImageSize?
        public var isPrimary = false
        public var hidden = false
        /// The item this one is a thumbnail of (`thmb` reference).
        public var thumbnailOf: UInt32?
        /// What this auxiliary image holds, and for which item (`auxl` reference).
        public var auxiliary: Auxiliary?
        /// `grid` images: tiles (`dimg` inputs), and the descriptor (columns × rows).
        public var tiles: Int?
        public var grid: ImageGrid?
        /// JPEG only: component count and coding process.
        public var components: Int?
        public var coding: String?
    }

    public struct Auxiliary: Sendable, Equatable {
        /// A readable kind (`AuxiliaryKind`), or the URN itself when it is not a known one.
        public var kind: String
        /// The `auxC` URN as stored.
        public var urn: String
        public var of: UInt32?
    }

    /// How the primary image is coded, coloured and oriented.
    public struct Primary: Sendable, Equatable {
        public var id: UInt32?
        /// Luma bits per sample.
        public var bitDepth: Int?
        /// `4:2:0`, `4:2:2`, `4:4:4`, `4:0:0`, …
        public var chroma: String?
        public var icc: ICCProfileInfo?
        public var nclx: NCLX?
        /// HEIF transformative properties of the primary, in the order they apply:
        /// `clap 100x80+2+0`, `irot 90`, `imir horizontal`.
        public var transforms: [String] = []
        /// HEIF `irot`: degrees anticlockwise (all `irot`s together), nil without one.
        public var rotation: Int?
        /// HEIF `imir` (the last one), nil without one.
        public var mirror: MirrorAxis?
        /// EXIF Orientation (IFD0), 1–8 as stored.
        public var exifOrientation: Int?
    }

    /// One ImageIO-style EXIF dictionary.
    public struct EXIFGroup: Sendable, Equatable {
        /// `{TIFF}`, `{Exif}` or `{GPS}`.
        public var name: String
        public var fields: [EXIFField]
    }

    /// One field: its ImageIO key (`Make`, `ExposureTime`, `Latitude`) and value.
    public struct EXIFField: Sendable, Equatable {
        public var key: String
        public var value: EXIFValue
    }

    public enum EXIFValue: Sendable, Equatable {
        case text(String)
        case integer(Int)
        case rational(TIFFRational)
        case number(Double)
    }

    /// Bytes of each metadata kind, nil when absent.
    public struct MetadataSizes: Sendable, Equatable {
        public var exif: Int?
        /// The XMP packet (for JPEG, the standard packet).
        public var xmp: Int?
        /// JPEG Extended XMP: bytes over all its chunks.
        public var extendedXMP: Int?
        public var icc: Int?
    }

    /// The first field named `key` in group `group`.
    public func exifValue(_ group: String, _ key: String) -> EXIFValue? {
        exifGroups.first { $0.name == group }?.fields.first { $0.key == key }?.value
    }
}
