/// What a JPEG of the primary image alone leaves out of a file: the reason a source is
/// never handed off (deleted or moved) while it holds more than its outputs carry.
extension HEIFStructure {
    /// Each kind of content the primary's JPEG does not carry, in words: other images,
    /// auxiliary images other than alpha (alpha is flattened into the pixels), gain-map
    /// (`tmap`) items, an image sequence. Thumbnails, tiles and the primary's own
    /// derivation are not content of their own. Empty when the JPEG carries everything.
    package func contentNotCarried() -> [String] {
        let imageTypes = Self.codedImageTypes.union(Self.derivedImageTypes)
        var parts: Set<UInt32> = [primaryID]
        for reference in references {
            switch reference.type {
            case "thmb", "auxl": parts.insert(reference.from)
            case "dimg": parts.formUnion(reference.to)
            default: break
            }
        }
        var missing: [String] = []
        let others = items.values.filter { imageTypes.contains($0.type) && !$0.hidden && !parts.contains($0.id) }.count
        if others > 0 { missing.append(others == 1 ? "1 more image" : "\(others) more images") }
        let auxiliaries = references.filter { $0.type == "auxl" && $0.to.contains(primaryID) }
            .compactMap { auxiliaryType(of: $0.from).map(AuxiliaryKind.init(urn:)) }
            .filter { $0 != .alpha }
        missing += Array(Set(auxiliaries.map(\.phrase))).sorted()
        if items.values.contains(where: { $0.type == "tmap" }) { missing.append("a gain map ('tmap' item)") }
        if hasImageSequence { missing.append("an image sequence") }
        return missing
    }
}
