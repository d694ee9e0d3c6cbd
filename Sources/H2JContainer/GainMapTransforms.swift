extension HEIFStructure {
    /// The transforms gain map `item` takes from the primary, added after its own when it
    /// is decoded (`standaloneImage(_:in:adding:)`), so that it lies as the photo does.
    ///
    /// One rule for every kind (Apple's and Adobe's or Samsung's `hdrgm` auxiliary images,
    /// a `tmap` item's gain map input): a gain map with a `clap`, `irot` or `imir` of its
    /// own keeps them and takes nothing (iPhones, libavif); one with none was coded as the
    /// primary was, before its transforms (a Galaxy S24's), and takes the primary's, each
    /// `clap` scaled to the gain map's size. A `tmap` item's own transforms are never used:
    /// the photo is its base, the primary, with the primary's transforms. A map whose shape
    /// is the primary's turned a quarter, and not the primary's own, is taken as already
    /// turned (as ISO/IEC 23008-12 reads a derived image's inputs): it takes nothing.
    ///
    /// Throws when the primary's transforms cannot be read or scaled: either has no
    /// `ispe`, or a `clap` crops nothing.
    package func inheritedTransforms(ofGainMap item: UInt32) throws(HEIFError) -> [ImageTransform] {
        let primary = try transforms(of: primaryID)
        guard try transforms(of: item).isEmpty, !primary.isEmpty else { return [] }
        guard var primarySize = imageSize(of: primaryID), var mapSize = imageSize(of: item) else {
            throw .unusableImage(id: item, reason: "cannot take the primary's transforms: an 'ispe' is missing")
        }
        if Self.turnsQuarter(primary), Self.isTurned(mapSize, of: primarySize) { return [] }
        var inherited: [ImageTransform] = []
        for transform in primary {
            switch transform {
            case .cleanAperture(let clap):
                guard let scaled = clap.scaled(from: primarySize, to: mapSize),
                      let primaryCrop = clap.cropRect(imageWidth: primarySize.width, imageHeight: primarySize.height),
                      let mapCrop = scaled.cropRect(imageWidth: mapSize.width, imageHeight: mapSize.height)
                else { throw .unusableImage(id: item, reason: "cannot take the primary's 'clap': it crops nothing") }
                inherited.append(.cleanAperture(scaled))
                primarySize = ImageSize(width: primaryCrop.width, height: primaryCrop.height)
                mapSize = ImageSize(width: mapCrop.width, height: mapCrop.height)
            case .rotation(let quarterTurns):
                inherited.append(transform)
                if quarterTurns % 2 == 1 {
                    primarySize = ImageSize(width: primarySize.height, height: primarySize.width)
                    mapSize = ImageSize(width: mapSize.height, height: mapSize.width)
                }
            case .mirror:
                inherited.append(transform)
            }
        }
        return inherited
    }

    /// Whether `transforms` turn an image by an odd number of quarter turns in all.
    private static func turnsQuarter(_ transforms: [ImageTransform]) -> Bool {
        transforms.reduce(0) { turns, transform in
            if case .rotation(let quarterTurns) = transform { turns + quarterTurns } else { turns }
        } % 2 == 1
    }

    /// Whether `map`'s aspect ratio is nearer `image`'s turned a quarter than its own (never
    /// for a square image).
    private static func isTurned(_ map: ImageSize, of image: ImageSize) -> Bool {
        abs(map.width * image.width - map.height * image.height) < abs(map.width * image.height - map.height * image.width)
    }
}
