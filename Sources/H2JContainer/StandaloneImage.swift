import H2JSupport

extension HEIFStructure {
    /// Image item `id` shown as an HEIF of its own, whose primary (and only image not
    /// hidden) it is: the file's brands, then a `meta` box with the item and what it
    /// derives from (a grid's tiles, each once), their properties as the file has them
    /// (essential flags kept, transforms and all), their `dimg` references, and their
    /// data: `iloc` extents into the file, which follows the header (`SplicedByteSource`,
    /// read in place), and what the file keeps in `idat` copied into the new one.
    ///
    /// For an image libheif 1.15 reaches through no API: an ISO 21496-1 gain map that is
    /// only an input of a `tmap` item (hidden, and no auxiliary image). Shown this way,
    /// the file's other items, which libheif might refuse (a `cdsc` to the `tmap` item),
    /// are out of its sight too. Auxiliary images of the item are left out, but its alpha
    /// plane when `alpha` asks (with its `auxl` and any `prem` reference): how a derived
    /// image's layer reaches libheif with its alpha. `transforms` are associated with the
    /// item after its own, as essential (a gain map's `inheritedTransforms`).
    ///
    /// Throws when an item it derives from does not exist or its data cannot be located
    /// in this file (as `itemData` would); reads nothing of `source` but its size.
    package func standaloneImage(_ id: UInt32, in source: ByteSource, alpha: Bool = false,
                                 adding transforms: [ImageTransform] = []) throws(HEIFError) -> ByteSource {
        // The header's offsets are the file's plus the header's length.
        guard source.size <= Int.max / 2 else { throw .limitExceeded("a file of \(source.size) bytes") }
        var included: [UInt32] = []
        let alphaPlanes = alpha ? auxiliaryImages(of: id).filter { $0.kind == .alpha }.map(\.id) : []
        var pending: [(id: UInt32, depth: Int)] = [(id, 0)] + alphaPlanes.map { ($0, 1) }
        var seen: Set<UInt32> = []
        var cursor = 0
        while cursor < pending.count {
            let (next, depth) = pending[cursor]
            cursor += 1
            guard seen.insert(next).inserted else { continue }
            guard items[next] != nil else { throw .missingItem(referencedBy: "'dimg' of image item \(id)", id: next) }
            guard depth <= Self.maxDerivationDepth else {
                throw .limitExceeded("derived images nest more than \(Self.maxDerivationDepth) deep below item \(id)")
            }
            included.append(next)
            pending += referenced(from: next, type: "dimg").map { ($0, depth + 1) }
        }
        var meta = MetaBoxWriter()
        for item in included {
            meta.addItem(item, type: items[item]?.type ?? "", hidden: item != id)
            let inputs = referenced(from: item, type: "dimg")
            if !inputs.isEmpty { meta.addReference("dimg", from: item, to: inputs) }
            if alphaPlanes.contains(item) {
                meta.addReference("auxl", from: item, to: [id])
                if references.contains(where: { $0.type == "prem" && $0.from == id && $0.to.contains(item) }) {
                    meta.addReference("prem", from: id, to: [item])
                }
            }
            let added = item == id ? transforms.map { (meta.addProperty($0.propertyBox), true) } : []
            meta.associate(item, (associations[item] ?? []).compactMap { association in
                property(at: association).map { (meta.addProperty(BoxBytes.box($0.type, $0.payload)), association.essential) }
            } + added)
            let (construction, ranges, _) = try resolvedExtents(of: item, size: source.size)
            if construction == .idat {
                meta.locate(item, inIdat: ranges.flatMap { idat[$0] })
            } else {
                meta.locate(item, inWrapped: ranges)
            }
        }
        let ftyp = BoxBytes.box("ftyp", BoxBytes.fourCC(brands.first ?? "mif1") + BoxBytes.u32(0) + brands.dropFirst().flatMap(BoxBytes.fourCC))
        return SplicedByteSource(head: meta.heifHeader(ftyp: ftyp, primary: id, wrapping: source.size), tail: source)
    }
}
