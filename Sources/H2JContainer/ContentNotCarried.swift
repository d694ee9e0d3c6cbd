import H2JSupport

extension Warning.Code {
    package static let contentNotConverted = Self("content-not-converted")
}

/// What the JPEGs written for a file leave out of it: said in a warning on
/// every conversion, and the reason a source is never handed off (deleted or moved)
/// while it holds more than its outputs carry.
extension HEIFStructure {
    /// Each kind of content the outputs do not carry, in words, when the JPEGs written
    /// are those of `converted` (image item IDs; the primary alone when nil): other
    /// images (with their item IDs), auxiliary images other than alpha (alpha is
    /// flattened into the pixels), gain-map (`tmap`) items, image sequences (with their
    /// frame counts). Thumbnails, tiles and an image's own derivation are not content of
    /// their own. Empty when the outputs carry everything.
    package func contentNotCarried(converted: Set<UInt32>? = nil) -> [String] {
        let carried = converted ?? [primaryID]
        var missing: [String] = []
        let others = stillImages().filter { !carried.contains($0) }
        if !others.isEmpty {
            let ids = others.prefix(8).map { "#\($0)" }.joined(separator: ", ") + (others.count > 8 ? ", …" : "")
            missing.append((others.count == 1 ? "1 more image" : "\(others.count) more images") + " (\(ids))")
        }
        let auxiliaries = references.filter { $0.type == "auxl" && $0.to.contains(primaryID) }
            .compactMap { auxiliaryType(of: $0.from).map(AuxiliaryKind.init(urn:)) }
            .filter { $0 != .alpha }
        missing += Array(Set(auxiliaries.map(\.withArticle))).sorted()
        if items.values.contains(where: { $0.type == "tmap" }) { missing.append("a gain map ('tmap' item)") }
        if let sequences = sequencePhrase { missing.append(sequences) }
        return missing
    }

    /// The warning that names what `contentNotCarried` found, nil when it found nothing.
    package static func contentNotConvertedWarning(_ missing: [String]) -> Warning? {
        guard !missing.isEmpty else { return nil }
        return Warning(.contentNotConverted, "not converted: \(missing.joined(separator: ", "))")
    }

    /// `an image sequence of 60 frames`, `2 image sequences (60 and 5 frames)`; nil
    /// without a `moov` box. Tracks that are not pictures (audio, alpha or depth
    /// sequences, timed metadata) go with the sequences they belong to.
    private var sequencePhrase: String? {
        guard hasImageSequence else { return nil }
        let visual = sequenceTracks.filter(\.isVisual)
        guard !visual.isEmpty else { return "an image sequence" }
        let frames = visual.map { $0.samples.map(String.init) ?? "?" }
        if visual.count == 1 {
            return "an image sequence of \(frames[0]) frame\(visual[0].samples == 1 ? "" : "s")"
        }
        return "\(visual.count) image sequences (\(frames.joined(separator: ", ")) frames)"
    }
}
