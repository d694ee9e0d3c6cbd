import H2JSupport

/// A `jpeg` image item (ISO/IEC 23008-12 Annex H): its data is a JPEG codestream, less
/// whatever header bytes its `jpgC` property holds for it.
extension HEIFStructure {
    /// The most bytes a JPEG item's codestream may have: a 256 MP photo at the highest
    /// quality is well under it.
    package static let maxJPEGItemBytes = 256 << 20

    /// The whole codestream of JPEG item `id`: its `jpgC` property's bytes (a header the
    /// item's data leaves out, e.g. tables shared by several items), then its data.
    package func jpegCodestream(of id: UInt32, from source: ByteSource) throws(HEIFError) -> [UInt8] {
        let prefix = properties(of: id, type: "jpgC").first?.payload ?? []
        return prefix + (try itemData(id, from: source, maxBytes: Self.maxJPEGItemBytes - prefix.count))
    }
}
