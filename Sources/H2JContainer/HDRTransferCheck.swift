extension HEIFStructure {
    /// `PQ` (SMPTE ST 2084, nclx transfer 16) or `HLG` (ARIB STD-B67, transfer 18) when
    /// an image's (the primary's when nil) nclx names an HDR transfer; nil otherwise.
    /// Such an image is tone-mapped, and its HDR rendition is content of its own.
    package func hdrTransferName(of image: UInt32? = nil) -> String? {
        switch SourceMetadata.nclx(self, image ?? primaryID)?.transfer {
        case 16: return "PQ"
        case 18: return "HLG"
        default: return nil
        }
    }
}
