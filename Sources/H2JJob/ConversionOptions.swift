import H2JMetadata
import H2JContainer
import H2JOutputPlan
import H2JSupport
import H2JJPEG

/// Settings shared by every file of a run. Every field is also listed in `fields`
/// (`ConversionOptions+Fields`), which the wire and the state's fingerprint are derived from.
package struct ConversionOptions: Sendable, Equatable {
    /// JPEG quality, 1…100.
    package var quality = 90
    package var metadata = MetadataMode.keep
    /// In `keep` mode, remove the GPS IFD and XMP `exif:GPS…` properties (location privacy).
    package var stripGPS = false
    /// Write the provenance mark (`ProvenanceMark`); `--no-mark` turns it off.
    package var mark = true
    /// Colour transparent pixels are flattened onto (JPEG has no alpha).
    package var background = RGBColor.white
    /// Replace existing outputs that heic2jpg wrote for the same source
    /// (`OutputOwnership`) instead of reporting them `skipped`. Never anything else.
    package var overwrite = false
    /// What to do when a file heic2jpg did not write is at the output path.
    package var onConflict = ConflictPolicy.fail
    /// Plan and report, write nothing.
    package var dryRun = false
    /// Largest image accepted, in pixels after transforms: refuses decompression bombs,
    /// accepts every camera (a 200 MP phone photo is 12240×16320 = 199.8 MP).
    package var maxPixels = ConversionPlan.defaultMaxPixels
    /// `--images`: which still images of a file become JPEGs.
    package var images = ImageSelection.all
    /// `--stereo`: how a stereo pair is written.
    package var stereo = StereoLayout.mpo
    /// `--hdr`: whether a source's HDR gain map makes the output an Ultra HDR JPEG (keep
    /// mode only; strip mode writes pixels only).
    package var hdr = HDROutput.ultraHDR
    /// `--aux`: which auxiliary images become grayscale JPEGs beside their image.
    package var auxiliaries: Set<AuxiliaryOutput> = []
    /// Whether `--aux` was given: the kinds it leaves out are then left out as the user
    /// asked (named, but no reason to keep an original); without it they are content
    /// the outputs do not carry.
    package var auxiliariesChosen = false
    /// Threads decoding the tiles of one file (the tile engine's lanes, or libheif's
    /// decoding threads).
    package var decodingThreads = 1
    /// `--max-size`: the box every output fits within; nil keeps the source's size.
    package var maxSize: OutputBox?
    /// `--thumbnail`: take the embedded thumbnail item when it is big enough and has the
    /// primary's shape (`--max-size` then scales it).
    package var thumbnail = false
    /// `--colorspace`: convert to sRGB, or keep the source's colours and profile.
    package var colorspace = ColourSpaceChoice.keep
    /// `--progressive`: a progressive JPEG (SOF2).
    package var progressive = false
    /// `--optimize`: Huffman tables optimised for the image.
    package var optimize = false
    /// `--sampling`: the chroma subsampling of a photo's colour output.
    package var sampling = ChromaSubsampling.s420
    /// The worker's memory limit (`--max-memory` or its default), set by the worker from
    /// its own limits, never sent: `--progressive` and `--optimize` are refused on an
    /// image whose coefficient buffer does not fit it (`CoefficientMemoryError`). nil (a
    /// conversion outside a worker) checks nothing. Not in the fingerprint: it decides
    /// whether a file fails, never what an output holds.
    package var maxMemory: Int?

    /// What a worker needs besides any image's buffers: the smallest `--max-memory`, and
    /// what the coefficient check sets aside.
    package static let workerOwnMemory = 64 << 20

    /// `--max-pixels` ceiling in megapixels: 65535 × 65535, libheif's own size limit.
    package static let maxMegapixels = 4294
    /// Largest width or height libheif accepts, checked before any allocation.
    package static let maxDimension = 65535

    package init() {}

    /// The options that decide which files a source's conversion writes and what they
    /// carry, as `inspect` plans with them.
    package var outputChoices: OutputChoices {
        var choices = OutputChoices()
        (choices.images, choices.stereo, choices.hdr, choices.metadata) = (images, stereo, hdr, metadata)
        (choices.auxiliaries, choices.auxiliariesChosen) = (auxiliaries, auxiliariesChosen)
        return choices
    }
}

/// `--on-conflict`: the answer to a file at the output path that is not ours.
package enum ConflictPolicy: String, Sendable, Equatable, CaseIterable {
    /// The source fails, naming the file ("… exists and was not written by heic2jpg").
    case fail
    /// The output goes to the first free `NAME-1.jpg`, `NAME-2.jpg`, …
    case suffix
}
