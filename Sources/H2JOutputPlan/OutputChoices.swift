import H2JContainer
import H2JMetadata

/// The options that decide which files a source's conversion writes and what they carry
/// (`--images`, `--stereo`, `--aux`, `--hdr`, `--metadata`), for `inspect`, which plans
/// with them what `convert` would write (`ConversionOptions.outputChoices`).
package struct OutputChoices: Sendable, Equatable {
    package var images = ImageSelection.all
    package var stereo = StereoLayout.mpo
    package var auxiliaries: Set<AuxiliaryOutput> = []
    /// Whether `--aux` was given: the kinds it leaves out are then left out as asked.
    package var auxiliariesChosen = false
    package var hdr = HDROutput.ultraHDR
    /// Strip mode writes pixels only: never an Ultra HDR JPEG.
    package var metadata = MetadataMode.keep

    package init() {}

    /// Keep mode with `--hdr ultrahdr`: the outputs whose source has a gain map, or is
    /// PQ or HLG, are Ultra HDR JPEGs.
    package var writesUltraHDR: Bool { hdr == .ultraHDR && metadata == .keep }
}

/// `--images`: the still images of a file (`HEIFStructure.stillImages()`) that become JPEGs.
package enum ImageSelection: String, Sendable, Equatable, CaseIterable {
    /// Every one: the primary as `NAME.jpg`, the others as `NAME-2.jpg`, `NAME-3.jpg`, …
    case all
    /// The primary only; the others are named in a `content-not-converted` warning.
    case primary
}

/// `--stereo`: how the two views of a stereo pair (an `ster` entity group) are written.
package enum StereoLayout: String, Sendable, Equatable, CaseIterable {
    /// One Multi-Picture file (CIPA DC-007 MPO, MP type "disparity"), the left eye first,
    /// at the name of the pair's first image (`NAME.jpg` when it holds the primary).
    case mpo
    /// Two JPEGs: `NAME-left.jpg` and `NAME-right.jpg`.
    case split
}

/// `--aux`: the kinds of auxiliary image written as grayscale JPEGs, `NAME.<kind>.jpg`.
package enum AuxiliaryOutput: String, Sendable, Equatable, CaseIterable {
    /// Depth and disparity maps.
    case depth
    /// Portrait and segmentation mattes.
    case matte
    /// HDR gain maps that are auxiliary images (Apple's, Samsung's, Adobe's).
    case gainmap
    /// Alpha planes (the image itself has its alpha flattened onto `--background`).
    case alpha

    /// The kind written for an auxiliary image of `kind`; nil for a URN no kind names.
    package init?(_ kind: AuxiliaryKind) {
        switch kind {
        case .depth, .disparity: self = .depth
        case .matte: self = .matte
        case .hdrGainMap: self = .gainmap
        case .alpha: self = .alpha
        case .other: return nil
        }
    }
}

/// `--hdr`: what becomes of a source's HDR rendition (its gain map).
package enum HDROutput: String, Sendable, Equatable, CaseIterable {
    /// An Ultra HDR JPEG: the SDR image, then its gain map (Adobe's XMP and ISO 21496-1).
    case ultraHDR = "ultrahdr"
    /// The SDR rendition only; the gain map is named as left out.
    case sdr
}
