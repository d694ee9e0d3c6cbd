import H2JSupport

/// Which image items of a file are photos of their own: what `--images all` writes, one
/// JPEG each, and what a JPEG of the primary alone leaves out.
extension HEIFStructure {
    /// The still images in output order: the primary first, then every other image item
    /// (a coded or derived image type) that is not hidden, not a thumbnail (`thmb`), not
    /// an auxiliary image (`auxl`: alpha, depth, gain maps) and not an input of another
    /// image (`dimg`: grid tiles, overlay layers, an `iden`'s source, a `tmap`'s gain
    /// map), in ascending item ID. `tmap` items are HDR renditions of the primary, not
    /// photos. Items coded in a type heic2jpg cannot decode are included: the converter
    /// names them when it leaves them out.
    package func stillImages() -> [UInt32] {
        let imageTypes = Self.codedImageTypes.union(Self.derivedImageTypes)
        var parts: Set<UInt32> = [primaryID]
        for reference in references {
            switch reference.type {
            case "thmb", "auxl": parts.insert(reference.from)
            case "dimg": parts.formUnion(reference.to)
            default: break
            }
        }
        let others = items.values.filter { imageTypes.contains($0.type) && !$0.hidden && !parts.contains($0.id) }.map(\.id)
        return [primaryID] + others.sorted()
    }

    /// The stereo pair among `images`, when an `ster` entity group names two of them:
    /// (left, right) in the group's order, which ISO/IEC 23008-12 §6.8.5 defines as left
    /// eye first. Nil without such a group.
    package func stereoPair(among images: [UInt32]) -> (left: UInt32, right: UInt32)? {
        let candidates = Set(images)
        for group in entityGroups where group.type == "ster" && group.entities.count == 2 {
            let (left, right) = (group.entities[0], group.entities[1])
            if left != right, candidates.contains(left), candidates.contains(right) { return (left, right) }
        }
        return nil
    }

    /// The auxiliary images of image `id` (image items whose `auxl` reference names it):
    /// alpha, depth, mattes, gain maps, by item ID, with what each holds (from its `auxC`
    /// URN; `.other("")` without one).
    package func auxiliaryImages(of id: UInt32) -> [(id: UInt32, kind: AuxiliaryKind)] {
        let imageTypes = Self.codedImageTypes.union(Self.derivedImageTypes)
        let auxiliaries = Set(references.filter { $0.type == "auxl" && $0.to.contains(id) }.map(\.from))
            .filter { $0 != id && items[$0].map { imageTypes.contains($0.type) } ?? false }
        return auxiliaries.sorted().map { ($0, AuxiliaryKind(urn: auxiliaryType(of: $0) ?? "")) }
    }

    /// The URN of Apple's HDR gain map (iPhone 12 and later).
    package static let appleGainMapURN = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// The primary's Apple HDR gain map (an auxiliary image with Apple's URN), if any.
    package var appleGainMap: UInt32? {
        auxiliaryImages(of: primaryID).map(\.id).first { auxiliaryType(of: $0) == Self.appleGainMapURN }
    }

    /// The URNs of gain maps described by Adobe's `hdrgm:` XMP: Samsung's (Galaxy S24,
    /// One UI 6–7) and Adobe's pre-ISO one (Photoshop and Camera Raw exports, libavif).
    package static let hdrgmGainMapURNs: Set<String> = ["urn:com:samsung:photo:2024:aux:hdrgainmap", "urn:com:photo:aux:hdrgainmap"]

    /// The primary's gain map of one of `hdrgmGainMapURNs`, if any.
    package var hdrgmGainMap: UInt32? {
        auxiliaryImages(of: primaryID).map(\.id).first { auxiliaryType(of: $0).map(Self.hdrgmGainMapURNs.contains) ?? false }
    }
}
