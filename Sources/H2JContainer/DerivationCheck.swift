import H2JSupport

/// Refuses the derived-image shapes that reach libheif's weak spots, before any decoder
/// sees the file: libheif 1.15 asserts on an input that is not an image item, recurses
/// without bound on a derivation cycle, and decodes a grid whose tiles do not cover its
/// canvas (or an overlay with a huge canvas) as one huge, mostly empty picture.
///
/// Checked from the primary down every path of what decoding it decodes too, to
/// `maxDepth`: a derived image's `dimg` inputs, and any image's auxiliary images
/// (`auxl`: libheif decodes the alpha plane with the image, so an alpha grid whose tile
/// is the primary itself recursed for ever, one thread per level):
/// - a derived image (`grid`, `iovl`, `iden`) has inputs, and each exists and is an
///   image item (a coded type or another derived image), never an item on its own path;
/// - an auxiliary image is never an item on the path of the image it belongs to;
/// - `iden` has exactly one input;
/// - a grid has exactly rows × columns tiles, each with an `ispe` of the first tile's
///   size, and they cover the declared output size;
/// - a grid's or overlay's declared canvas has at most `maxPixels` pixels.
/// Real files nest at most three deep (an `iden` of a `grid` of `hvc1` tiles).
extension HEIFStructure {
    /// Deepest chain of derived images accepted.
    package static let maxDerivationDepth = 8
    /// Derived image descriptors are a few bytes (an overlay's grows with its inputs).
    package static let maxDescriptorBytes = 1 << 16
    static let derivedImageTypes: Set<String> = ["grid", "iovl", "iden"]

    /// Checks what decoding `image` (the primary when nil) decodes too.
    package func checkDerivation(of image: UInt32? = nil, from source: ByteSource, maxPixels: Int) throws(HEIFError) {
        var checked: Set<UInt32> = []
        let root = image ?? primaryID
        try checkDerived(root, root: root, path: [], checked: &checked, source: source, maxPixels: maxPixels)
    }

    /// Image items that are auxiliary images of `id` (alpha, depth, gain map, …).
    private func auxiliaries(of id: UInt32) -> [UInt32] {
        references.filter { $0.type == "auxl" && $0.to.contains(id) }.map(\.from).filter { auxiliary in
            items[auxiliary].map { Self.codedImageTypes.contains($0.type) || Self.derivedImageTypes.contains($0.type) } ?? false
        }
    }

    /// Depth first; `checked` holds the items whose whole derivation has passed, each
    /// checked once however many paths reach it (a hostile file's shared inputs must not
    /// multiply the work), which cannot hide a cycle: one through a checked item would
    /// have been found when it was checked.
    private func checkDerived(_ id: UInt32, root: UInt32, path: [UInt32], checked: inout Set<UInt32>, source: ByteSource,
                              maxPixels: Int) throws(HEIFError) {
        guard !checked.contains(id), let item = items[id] else { return }
        defer { checked.insert(id) }
        guard path.count < Self.maxDerivationDepth else {
            throw .limitExceeded("derived images nest more than \(Self.maxDerivationDepth) deep below item \(root)")
        }
        let onPath = path + [id]
        for auxiliary in Set(auxiliaries(of: id)) {
            if onPath.contains(auxiliary) {
                throw .malformedBox("iref", reason: "item \(auxiliary) is an auxiliary image of item \(id), which it derives from: a derivation cycle")
            }
            try checkDerived(auxiliary, root: root, path: onPath, checked: &checked, source: source, maxPixels: maxPixels)
        }
        guard Self.derivedImageTypes.contains(item.type) else { return }
        let inputs = referenced(from: id, type: "dimg")
        if inputs.isEmpty { throw .unusableImage(id: root, reason: "derives from item \(id), a '\(item.type)' image with no 'dimg' inputs") }
        for input in inputs {
            guard let inputItem = items[input] else { throw .missingItem(referencedBy: "'dimg' of item \(id)", id: input) }
            if onPath.contains(input) {
                throw .malformedBox("iref", reason: "item \(id) derives from item \(input), which derives from it: a derivation cycle")
            }
            guard Self.codedImageTypes.contains(inputItem.type) || Self.derivedImageTypes.contains(inputItem.type) else {
                throw .unusableImage(id: root, reason: "derives from item \(input) (input of item \(id)), a '\(inputItem.type)' item, not an image")
            }
        }
        switch item.type {
        case "iden" where inputs.count != 1:
            throw .malformedBox("iden", reason: "item \(id) has \(inputs.count) 'dimg' inputs, 1 expected")
        case "grid":
            try checkGrid(id, tiles: inputs, source: source, maxPixels: maxPixels)
        case "iovl":
            let (width, height) = try overlayCanvas(id, source: source)
            try Self.checkCanvas(item: id, type: "iovl", width: width, height: height, maxPixels: maxPixels)
        default:
            break
        }
        for input in Set(inputs) { try checkDerived(input, root: root, path: onPath, checked: &checked, source: source, maxPixels: maxPixels) }
    }

    private func checkGrid(_ id: UInt32, tiles: [UInt32], source: ByteSource, maxPixels: Int) throws(HEIFError) {
        let grid = try ImageGrid.parse(itemData(id, from: source, maxBytes: Self.maxDescriptorBytes))
        try Self.checkCanvas(item: id, type: "grid", width: grid.outputWidth, height: grid.outputHeight, maxPixels: maxPixels)
        guard tiles.count == grid.rows * grid.columns else {
            throw .malformedBox("grid", reason: "item \(id) declares \(grid.columns)×\(grid.rows) tiles but has \(tiles.count) 'dimg' inputs")
        }
        guard let tileSize = imageSize(of: tiles[0]) else {
            throw .malformedBox("grid", reason: "tile item \(tiles[0]) of item \(id) has no 'ispe' size")
        }
        for tile in tiles.dropFirst() where imageSize(of: tile) != tileSize {
            throw .malformedBox("grid", reason: "tile item \(tile) of item \(id) is not \(tileSize.width)×\(tileSize.height) like the first")
        }
        let (coveredWidth, wideOverflow) = tileSize.width.multipliedReportingOverflow(by: grid.columns)
        let (coveredHeight, highOverflow) = tileSize.height.multipliedReportingOverflow(by: grid.rows)
        guard wideOverflow || highOverflow || (coveredWidth >= grid.outputWidth && coveredHeight >= grid.outputHeight) else {
            throw .malformedBox("grid", reason: "item \(id)'s \(grid.columns)×\(grid.rows) tiles of \(tileSize.width)×\(tileSize.height) "
                                + "cover \(coveredWidth)×\(coveredHeight), not its \(grid.outputWidth)×\(grid.outputHeight) canvas")
        }
    }

    /// An overlay's declared canvas (`ImageOverlay`).
    private func overlayCanvas(_ id: UInt32, source: ByteSource) throws(HEIFError) -> (Int, Int) {
        let overlay = try ImageOverlay.parse(itemData(id, from: source, maxBytes: Self.maxDescriptorBytes), layers: nil)
        return (overlay.width, overlay.height)
    }

    private static func checkCanvas(item: UInt32, type: String, width: Int, height: Int, maxPixels: Int) throws(HEIFError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw .limitExceeded("item \(item)'s '\(type)' canvas is \(width)×\(height), over the \(maxPixels)-pixel limit")
        }
    }
}
