import H2JSupport

extension Warning.Code {
    /// The primary is HDR (PQ or HLG transfer) and was written as SDR without tone mapping.
    package static let hdrNotToneMapped = Self("hdr-not-tone-mapped")
}

extension HEIFStructure {
    /// A warning when an image's (the primary's when nil) nclx says HDR, PQ (SMPTE ST 2084, transfer 16) or
    /// HLG (ARIB STD-B67, transfer 18): heic2jpg does not tone-map yet, so its samples are
    /// cut to 8 bits as if they were SDR and the JPEG is untagged; brightness and colours
    /// are not the original's (PQ comes out dim and flat, HLG dark). Never silent.
    package func hdrTransferWarning(of image: UInt32? = nil) -> Warning? {
        guard let nclx = SourceMetadata.nclx(self, image ?? primaryID), [16, 18].contains(nclx.transfer) else { return nil }
        let transfer = nclx.transfer == 16 ? "PQ" : "HLG"
        return Warning(.hdrNotToneMapped, "the image is HDR (nclx transfer \(nclx.transfer), \(transfer)): it was written as SDR "
                       + "without tone mapping and without a colour profile, so its brightness and colours are not the original's")
    }
}
