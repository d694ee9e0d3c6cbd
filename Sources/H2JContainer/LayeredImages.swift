import H2JSupport

/// Layered HEVC images (`lhv1`, ISO/IEC 23008-12's L-HEVC image items: a layer, decoded
/// with the layers it depends on), which heic2jpg does not decode: SHVC's enhancement
/// layers and MV-HEVC's second view.
extension HEIFStructure {
    /// The item type of a layered HEVC image.
    package static let layeredImageType = "lhv1"

    /// The layered images that are pictures of their own, by ID: `lhv1` items that are
    /// no part of another image (a derived image's input, a thumbnail, an auxiliary
    /// image), not hidden unless an `ster` group names them (MV-HEVC's second view), and
    /// no alternative (`altr` group) of another image, which shows the same picture (an
    /// SHVC enhancement layer beside its base layer). What a conversion leaves out.
    package func layeredViews() -> [UInt32] {
        var parts: Set<UInt32> = []
        for reference in references {
            switch reference.type {
            case "thmb", "auxl": parts.insert(reference.from)
            case "dimg": parts.formUnion(reference.to)
            default: break
            }
        }
        let alternatives = Set(entityGroups.filter { $0.type == "altr" }.flatMap(\.entities))
        let stereo = Set(entityGroups.filter { $0.type == "ster" }.flatMap(\.entities))
        return items.values.filter { item in
            item.type == Self.layeredImageType && !parts.contains(item.id) && !alternatives.contains(item.id)
                && (!item.hidden || stereo.contains(item.id))
        }.map(\.id).sorted()
    }

    /// `the right view (#2) of a stereo pair, a layered HEVC ('lhv1') image heic2jpg does
    /// not decode` for a view in an `ster` group, else `2 layered HEVC ('lhv1') images
    /// heic2jpg does not decode (#5, #6)`, for `layeredViews()`; nil when there are none.
    var layeredViewsPhrase: String? {
        let views = layeredViews()
        guard !views.isEmpty else { return nil }
        if views.count == 1, let pair = entityGroups.first(where: { $0.type == "ster" && $0.entities.count == 2 && $0.entities.contains(views[0]) }) {
            let side = pair.entities[0] == views[0] ? "left" : "right"
            return "the \(side) view (#\(views[0])) of a stereo pair, a layered HEVC ('lhv1') image heic2jpg does not decode"
        }
        let ids = views.prefix(8).map { "#\($0)" }.joined(separator: ", ") + (views.count > 8 ? ", …" : "")
        return (views.count == 1 ? "1 layered HEVC ('lhv1') image" : "\(views.count) layered HEVC ('lhv1') images")
            + " heic2jpg does not decode (\(ids))"
    }
}
