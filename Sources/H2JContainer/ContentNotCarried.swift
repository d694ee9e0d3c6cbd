import H2JSupport

extension Warning.Code {
    package static let contentNotConverted = Self("content-not-converted")
}

/// What the JPEGs written for a file leave out of it: said in a warning on
/// every conversion, and the reason a source is never handed off (deleted or moved)
/// while it holds more than its outputs carry.
extension HEIFStructure {
    /// Each kind of content the outputs do not carry, when the JPEGs written are those of
    /// the images `converted` (item IDs; the primary alone when nil) and of the
    /// auxiliary images `auxiliaries`: other images (with their item IDs), layered HEVC
    /// views heic2jpg does not decode (`layeredViews`: MV-HEVC's second view), the converted
    /// images' auxiliary images other than alpha (alpha is flattened into the pixels),
    /// gain-map (`tmap`) items, image sequences (with their frame counts). Thumbnails,
    /// tiles and an image's own derivation are not content of their own. Empty when the
    /// outputs carry everything.
    /// `toneMapCarried`: an Ultra HDR output carries the `tmap` item's HDR rendition.
    /// `hdrCarried`: an Ultra HDR output carries the HDR rendition of a PQ or HLG primary
    /// (`hdrTransferName`), which is otherwise tone-mapped to SDR only.
    package func contentNotCarried(converted: Set<UInt32>? = nil, auxiliaries: Set<UInt32> = [],
                                   toneMapCarried: Bool = false, hdrCarried: Bool = false) -> [ContentPart] {
        let carried = converted ?? [primaryID]
        var missing: [ContentPart] = []
        let others = stillImages().filter { !carried.contains($0) }
        if !others.isEmpty {
            let ids = others.prefix(8).map { "#\($0)" }.joined(separator: ", ") + (others.count > 8 ? ", …" : "")
            missing.append(ContentPart(.images, (others.count == 1 ? "1 more image" : "\(others.count) more images") + " (\(ids))"))
        }
        if let layered = layeredViewsPhrase { missing.append(ContentPart(.layeredImages, layered)) }
        var kinds: [AuxiliaryKind] = []
        for image in carried.sorted() {
            for (id, kind) in auxiliaryImages(of: image) where kind != .alpha && !auxiliaries.contains(id) && !kinds.contains(kind) {
                kinds.append(kind)
            }
        }
        missing += kinds.sorted { $0.withArticle < $1.withArticle }.map { ContentPart(.auxiliary($0), $0.withArticle) }
        if !hdrCarried, let transfer = hdrTransferName() {
            missing.append(ContentPart(.hdrRendition, "the primary's HDR rendition (\(transfer), tone-mapped to SDR only)"))
        }
        if !toneMapCarried, items.values.contains(where: { $0.type == "tmap" }) { missing.append(ContentPart(.gainMapItem, "a gain map ('tmap' item)")) }
        if let sequences = sequencePhrase { missing.append(ContentPart(.sequence, sequences)) }
        return missing
    }

    /// The warning that names what the outputs do not carry, nil when they carry
    /// everything: `missing` cannot be carried (or the defaults leave it out), `excluded`
    /// was left out by the user's own options, each with the option that would carry it.
    package static func contentNotConvertedWarning(_ missing: [String], excluded: [String] = []) -> Warning? {
        let parts = (missing.isEmpty ? [] : ["not converted: " + missing.joined(separator: ", ")])
            + (excluded.isEmpty ? [] : ["left out as asked: " + excluded.joined(separator: ", ")])
        guard !parts.isEmpty else { return nil }
        return Warning(.contentNotConverted, parts.joined(separator: "; "))
    }

    /// The phrase for this file's image sequences; nil without a `moov` box.
    private var sequencePhrase: String? {
        hasImageSequence ? Self.sequencePhrase(sequenceTracks) : nil
    }

    /// `an image sequence of 60 frames`, `2 image sequences (60, 5 frames)`, for the
    /// tracks of a `moov` box. Tracks that are not pictures (audio, alpha or depth
    /// sequences, timed metadata) go with the sequences they belong to.
    static func sequencePhrase(_ tracks: [SequenceTrack]) -> String {
        let visual = tracks.filter(\.isVisual)
        guard !visual.isEmpty else { return "an image sequence" }
        let frames = visual.map { $0.samples.map(String.init) ?? "?" }
        if visual.count == 1 {
            return "an image sequence of \(frames[0]) frame\(visual[0].samples == 1 ? "" : "s")"
        }
        return "\(visual.count) image sequences (\(frames.joined(separator: ", ")) frames)"
    }
}

/// One kind of content a file's outputs do not carry (`HEIFStructure.contentNotCarried`).
package struct ContentPart: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Still images other than those converted.
        case images
        /// Layered HEVC (`lhv1`) views, which no option converts.
        case layeredImages
        /// Auxiliary images of one kind (never alpha, which is flattened into the pixels).
        case auxiliary(AuxiliaryKind)
        /// A `tmap` item (an ISO 21496-1 HDR rendition).
        case gainMapItem
        /// The HDR rendition of a PQ or HLG primary written as SDR only.
        case hdrRendition
        /// Image sequences (`moov` tracks).
        case sequence
    }

    package let kind: Kind
    /// In words: "2 more images (#2, #3)", "a depth map", "an image sequence of 8 frames".
    package let phrase: String

    package init(_ kind: Kind, _ phrase: String) {
        self.kind = kind
        self.phrase = phrase
    }
}
