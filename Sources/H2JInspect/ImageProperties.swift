import H2JColour
import H2JContainer
import H2JMetadata
import H2JOutputPlan

/// What `heic2jpg inspect` reports about one file, in the spirit of ImageIO's
/// `CGImageSourceCopyPropertiesAtIndex`: the container, its images, how the primary
/// image is coded and coloured, key EXIF fields, which metadata it carries, and the
/// heic2jpg provenance mark. Built by `HEIFDescriber` or `JPEGDescriber` from the file's
/// bytes alone (no pixel is decoded); rendered by `InspectText` and `InspectJSON`.
package struct ImageProperties: Sendable, Equatable {
    /// `heif`, `avif` or `jpeg`.
    package var format: String
    package var byteSize: Int
    /// HEIF only: `ftyp` major brand and compatible brands.
    package var brands: Brands?
    /// HEIF only: `mini` for a low-overhead file, whose `mini` box is described as the
    /// `meta` box it stands for (`MinimizedImage`); nil for an ordinary `meta` box.
    package var layout: String?
    /// Every image the file shows a reader (HEIF: not the hidden tiles of a grid).
    package var images: [Image] = []
    /// HEIF: entity groups (`grpl`: stereo pairs, alternatives, bursts, albums).
    package var groups: [EntityGroup] = []
    /// HEIF: the tracks of a `moov` box (image sequences, videos), which are not converted.
    package var tracks: [SequenceTrack] = []
    /// HEIF: the `tmap` item (ISO 21496-1 gain map) and whether a reader must honour it.
    package var toneMap: ToneMappedImage?
    /// HEIF: Apple's HDR gain map (an auxiliary image of the primary) and its headroom.
    package var appleGainMap: AppleGainMap?

    package struct AppleGainMap: Sendable, Equatable {
        package var id: UInt32
        /// Linear headroom (≥ 1) and where it was read; nil when the file says none.
        package var headroom: Double?
        package var origin: AppleHDRHeadroom.Origin?
    }
    /// JPEG: the gain map of an Ultra HDR JPEG.
    package var gainMap: JPEGGainMap?
    /// HEIF: the files `convert` would write with the options `inspect` was given, and
    /// what they would leave out (`OutputForecast`).
    package var outputs: Outputs?

    package struct Outputs: Sendable, Equatable {
        /// The options planned with.
        package var choices: OutputChoices
        /// In the order a conversion writes them, the primary's first.
        package var files: [OutputFile] = []
        /// Planned outputs the converter refuses before decoding (`image-not-converted`).
        package var notWritten: [NotWritten] = []
        /// Why the conversion would fail (its primary cannot be converted); no files then.
        package var failure: String?
        /// What the primary's HDR rendition comes from, as the report's `hdr` says it (a
        /// computed gain map and a tone mapping in less detail); nil for an SDR source.
        package var hdr: String?
        /// Why the file's gain map would not be used (`gain-map-not-used`).
        package var gainMapNotUsed: String?
        /// What the outputs would not carry, each with the option that would carry it:
        /// content (the warning's "not converted", which keeps an original from being
        /// handed off), and what the options themselves leave out.
        package var notConverted: [String] = []
        package var leftOut: [String] = []

        package init(choices: OutputChoices) {
            self.choices = choices
        }
    }

    /// One file a conversion would write.
    package struct OutputFile: Sendable, Equatable {
        package var name: OutputName
        /// Image items it holds: one, or a stereo MPO's left and right view.
        package var items: [UInt32]
        /// For an auxiliary image's file: the image it belongs to.
        package var of: UInt32?
        /// The gain map that follows the image in an Ultra HDR JPEG: the source's item,
        /// or one computed from a PQ or HLG image's HDR rendition.
        package var gainMap: UInt32?
        package var computedGainMap = false

        /// As the report and the state call it (`OutputName.kind`): `primary`, `image`,
        /// or the auxiliary kind (`depth`, `matte`, `gainmap`, `alpha`).
        package var kind: String { name.kind }
        /// `jpeg`, `mpo` (a stereo pair: the left view, then the right) or `ultrahdr`
        /// (the image, then its gain map).
        package var layout: String { items.count > 1 ? "mpo" : gainMap != nil || computedGainMap ? "ultrahdr" : "jpeg" }
    }

    /// A planned output the converter would leave out, and why.
    package struct NotWritten: Sendable, Equatable {
        package var name: OutputName
        package var items: [UInt32]
        package var reason: String
    }

    package var primary: Primary?
    /// Key EXIF fields by ImageIO dictionary: `{TIFF}`, `{Exif}`, `{GPS}` (empty groups omitted).
    package var exifGroups: [EXIFGroup] = []
    /// Sizes of the metadata the file carries (for the primary image).
    package var metadata = MetadataSizes()
    /// The heic2jpg mark in the XMP, when there is a valid one.
    package var provenance: ProvenanceMark?
    /// Problems that did not stop the description (unreadable EXIF, cut ICC, …).
    package var warnings: [String] = []

    package struct Brands: Sendable, Equatable {
        package var major: String
        package var compatible: [String]
    }

    /// One image of the file.
    package struct Image: Sendable, Equatable {
        /// HEIF item ID; nil for JPEG.
        package var id: UInt32?
        /// HEIF item type (`hvc1`, `grid`, `av01`, …) or `jpeg`.
        package var type: String
        /// Coded size (`ispe`, or the JPEG frame size).
        package var size: ImageSize?
        /// Size after `clap` and `irot`, as a viewer shows it.
        package var displaySize: ImageSize?
        package var isPrimary = false
        package var hidden = false
        /// The item this one is a thumbnail of (`thmb` reference).
        package var thumbnailOf: UInt32?
        /// What this auxiliary image holds, and for which item (`auxl` reference).
        package var auxiliary: Auxiliary?
        /// Derived images other than grids (`tmap`, `iovl`, `iden`): their `dimg` inputs
        /// (a `tmap`: the base image, then the gain map).
        package var inputs: [UInt32] = []
        /// A hidden input of such a derived image (a gain map of a `tmap`): which one.
        package var inputOf: UInt32?
        /// `grid` images: tiles (`dimg` inputs), and the descriptor (columns × rows).
        package var tiles: Int?
        package var grid: ImageGrid?
        /// JPEG only: for an image of a Multi-Picture file (MPO, Ultra HDR) its MP type,
        /// size and where it starts.
        package var multiPicture: MultiPictureEntry?
        /// JPEG only: component count and coding process.
        package var components: Int?
        package var coding: String?
    }

    /// An image of a Multi-Picture JPEG, as its MP Index IFD lists it.
    package struct MultiPictureEntry: Sendable, Equatable {
        package var type: String
        package var bytes: Int
        /// From the file's first byte.
        package var start: Int
    }

    package struct Auxiliary: Sendable, Equatable {
        /// A readable kind (`AuxiliaryKind`), or the URN itself when it is not a known one.
        package var kind: String
        /// The `auxC` URN as stored.
        package var urn: String
        package var of: UInt32?
    }

    /// How the primary image is coded, coloured and oriented.
    package struct Primary: Sendable, Equatable {
        package var id: UInt32?
        /// Luma bits per sample.
        package var bitDepth: Int?
        /// `4:2:0`, `4:2:2`, `4:4:4`, `4:0:0`, …
        package var chroma: String?
        package var icc: ICCProfileInfo?
        package var nclx: NCLX?
        /// HEIF transformative properties of the primary, in the order they apply:
        /// `clap 100x80+2+0`, `irot 90`, `imir horizontal`.
        package var transforms: [String] = []
        /// HEIF `irot`: degrees anticlockwise (all `irot`s together), nil without one.
        package var rotation: Int?
        /// HEIF `imir` (the last one), nil without one.
        package var mirror: MirrorAxis?
        /// EXIF Orientation (IFD0), 1–8 as stored.
        package var exifOrientation: Int?
    }

    /// One ImageIO-style EXIF dictionary.
    package struct EXIFGroup: Sendable, Equatable {
        /// `{TIFF}`, `{Exif}` or `{GPS}`.
        package var name: String
        package var fields: [EXIFField]
    }

    /// One field: its ImageIO key (`Make`, `ExposureTime`, `Latitude`) and value.
    package struct EXIFField: Sendable, Equatable {
        package var key: String
        package var value: EXIFValue
    }

    package enum EXIFValue: Sendable, Equatable {
        case text(String)
        case integer(Int)
        case rational(TIFFRational)
        case number(Double)
    }

    /// Bytes of each metadata kind, nil when absent.
    package struct MetadataSizes: Sendable, Equatable {
        package var exif: Int?
        /// The XMP packet (for JPEG, the standard packet).
        package var xmp: Int?
        /// JPEG Extended XMP: bytes over all its chunks.
        package var extendedXMP: Int?
        package var icc: Int?
    }

    /// The first field named `key` in group `group`.
    package func exifValue(_ group: String, _ key: String) -> EXIFValue? {
        exifGroups.first { $0.name == group }?.fields.first { $0.key == key }?.value
    }
}
