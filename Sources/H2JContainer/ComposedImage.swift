/// Which derived images heic2jpg composes itself (`DerivedConversion`) instead of handing
/// them to a decoder: overlays, identity derivations, and grids with a tile that is a
/// derived image or coded in a type decoded only on its own (`standaloneTypes`).
/// Grids of coded tiles stay with the tile engine or libheif.
extension HEIFStructure {
    package func isComposed(_ id: UInt32) -> Bool {
        switch items[id]?.type {
        case "iovl", "iden":
            return true
        case "grid":
            return referenced(from: id, type: "dimg").contains { tile in
                items[tile].map { Self.derivedImageTypes.contains($0.type) || Self.standaloneTypes.contains($0.type) } ?? false
            }
        default:
            return false
        }
    }
}
