import H2JSupport

extension Warning.Code {
    /// The primary's `ispe` disagrees with the size its pixels really have.
    package static let declaredSizeMismatch = Self("declared-size-mismatch")
}

extension HEIFStructure {
    /// A warning when an image's (the primary's when nil) `ispe` (its declared size) is not the size its pixels
    /// really have: a grid's descriptor output size (which the output follows, in both
    /// engines), or an `hvc1` image's SPS size after the conformance window. The warning
    /// names both sizes so the discrepancy is never silent. Nothing when either size
    /// cannot be read (other checks report unreadable data).
    package func declaredSizeWarnings(of image: UInt32? = nil, from source: ByteSource) -> [Warning] {
        let id = image ?? primaryID
        guard let item = items[id], let declared = imageSize(of: id) else { return [] }
        let actual: ImageSize?
        let what: String
        switch item.type {
        case "grid":
            let grid = try? ImageGrid.parse(itemData(id, from: source, maxBytes: Self.maxDescriptorBytes))
            actual = grid.map { ImageSize(width: $0.outputWidth, height: $0.outputHeight) }
            what = "its grid descriptor says"
        case "hvc1":
            let configuration = properties(of: id, type: "hvcC").first.flatMap { try? HEVCConfiguration.parse($0.payload) }
            let sps = configuration?.parameterSets.lazy.compactMap(HEVCSequenceParameters.parse(nal:)).first
            actual = sps.map { ImageSize(width: $0.width, height: $0.height) }
            what = "its HEVC stream is"
        default:
            return []
        }
        guard let actual, actual != declared else { return [] }
        return [Warning(.declaredSizeMismatch,
                        "item \(id)'s 'ispe' says \(declared.width)×\(declared.height) but \(what) \(actual.width)×\(actual.height)")]
    }
}
