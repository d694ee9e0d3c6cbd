import H2JSupport

/// The head of an HEVC sequence parameter set (H.265 §7.3.2.2): what the coded
/// pictures really are, read before decoding.
///
/// The tile engine decides from this, not from `hvcC`'s summary fields: some writers put
/// `chroma_format_idc` 0 into `hvcC` for tiles coded in colour.
package struct HEVCSequenceParameters: Sendable, Equatable {
    /// 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    package let chromaFormat: Int
    package let bitDepthLuma: Int
    package let bitDepthChroma: Int
    /// Picture size after the conformance window: what the decoder outputs.
    package let width: Int
    package let height: Int
    /// The VUI's video signal type (`NCLX.unspecifiedVideoSignal` when the SPS has none), or nil when the
    /// SPS after the head could not be read: the head fields are good either way.
    package let videoSignal: NCLX?

    package init(chromaFormat: Int, bitDepthLuma: Int, bitDepthChroma: Int, width: Int, height: Int,
                 videoSignal: NCLX?) {
        self.chromaFormat = chromaFormat
        self.bitDepthLuma = bitDepthLuma
        self.bitDepthChroma = bitDepthChroma
        self.width = width
        self.height = height
        self.videoSignal = videoSignal
    }

    /// Parses the SPS NAL unit `nal` (2-byte NAL header included, emulation prevention
    /// bytes still in). Returns nil when it is not an SPS or its head is cut short.
    package static func parse(nal: [UInt8]) -> HEVCSequenceParameters? {
        guard nal.count > 2, (nal[0] >> 1) & 0x3F == 33 else { return nil }
        var reader = BitReader(BitReader.rbsp(Array(nal.dropFirst(2))))
        guard reader.skip(4), let maxSubLayersMinus1 = reader.bits(3), reader.skip(1),
              skipProfileTierLevel(&reader, maxSubLayersMinus1: maxSubLayersMinus1),
              reader.unsignedGolomb() != nil,
              let chroma = reader.unsignedGolomb(), chroma <= 3
        else { return nil }
        if chroma == 3, reader.flag() == nil { return nil }
        guard let codedWidth = reader.unsignedGolomb(), let codedHeight = reader.unsignedGolomb(),
              let windowed = reader.flag() else { return nil }
        var window = (left: 0, right: 0, top: 0, bottom: 0)
        if windowed {
            guard let left = reader.unsignedGolomb(), let right = reader.unsignedGolomb(),
                  let top = reader.unsignedGolomb(), let bottom = reader.unsignedGolomb() else { return nil }
            window = (left, right, top, bottom)
        }
        guard let lumaMinus8 = reader.unsignedGolomb(), let chromaMinus8 = reader.unsignedGolomb(),
              lumaMinus8 <= 8, chromaMinus8 <= 8 else { return nil }
        // Window offsets count chroma samples: 2 luma samples wide in 4:2:0/4:2:2, 2 high in 4:2:0.
        let unitX = chroma == 1 || chroma == 2 ? 2 : 1
        let unitY = chroma == 1 ? 2 : 1
        let width = codedWidth - unitX * (window.left + window.right)
        let height = codedHeight - unitY * (window.top + window.bottom)
        guard width > 0, height > 0 else { return nil }
        let videoSignal = parseVideoSignal(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
        return HEVCSequenceParameters(chromaFormat: chroma, bitDepthLuma: lumaMinus8 + 8,
                                      bitDepthChroma: chromaMinus8 + 8, width: width, height: height,
                                      videoSignal: videoSignal)
    }

    /// Same coded pictures: everything but the video signal type.
    package func sameFormat(as other: HEVCSequenceParameters) -> Bool {
        (chromaFormat, bitDepthLuma, bitDepthChroma, width, height)
            == (other.chromaFormat, other.bitDepthLuma, other.bitDepthChroma, other.width, other.height)
    }

    /// profile_tier_level(1, maxSubLayersMinus1) (§7.3.3): 88 bits of general profile,
    /// 8 of level, then the optional sub-layer parts.
    private static func skipProfileTierLevel(_ reader: inout BitReader, maxSubLayersMinus1: Int) -> Bool {
        guard reader.skip(96) else { return false }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let profile = reader.flag(), let level = reader.flag() else { return false }
            profilePresent.append(profile)
            levelPresent.append(level)
        }
        if maxSubLayersMinus1 > 0 {
            guard reader.skip(2 * (8 - maxSubLayersMinus1)) else { return false }
        }
        for i in 0..<maxSubLayersMinus1 {
            if profilePresent[i] { guard reader.skip(88) else { return false } }
            if levelPresent[i] { guard reader.skip(8) else { return false } }
        }
        return true
    }
}
