import H2JSupport

extension NCLX {
    /// What an SPS without a VUI, or a VUI without a video signal type, means: limited range,
    /// everything unspecified (H.265 E.3.1's defaults). The VUI's video signal type carries
    /// the same H.273 codes as an `nclx`, so it is read into one, codes as coded: a decoder
    /// library may report unknown ones differently, so colour decisions read these, never
    /// the decoder's.
    package static let unspecifiedVideoSignal = NCLX(primaries: 2, transfer: 2, matrix: 2, fullRange: false)
}

extension HEVCSequenceParameters {
    /// The SPS after the bit depths (§7.3.2.2.1), skipped up to `vui_parameters()`, whose
    /// video signal type it returns: `.unspecifiedVideoSignal` when absent, nil when the tail is cut
    /// short or breaks a bound the standard sets.
    static func parseVideoSignal(_ reader: inout BitReader, maxSubLayersMinus1: Int) -> NCLX? {
        guard let pocBitsMinus4 = reader.unsignedGolomb(), pocBitsMinus4 <= 12,
              let orderingInfoForAll = reader.flag() else { return nil }
        for _ in (orderingInfoForAll ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
            guard skipGolombs(&reader, 3) else { return nil }
        }
        // Coding block and transform sizes, transform hierarchy depths.
        guard skipGolombs(&reader, 6), let scalingLists = reader.flag() else { return nil }
        if scalingLists {
            guard let present = reader.flag() else { return nil }
            if present { guard skipScalingListData(&reader) else { return nil } }
        }
        guard reader.skip(2), let pcm = reader.flag() else { return nil }  // amp, SAO
        if pcm { guard reader.skip(8), skipGolombs(&reader, 2), reader.skip(1) else { return nil } }
        guard let shortTermSets = reader.unsignedGolomb(), shortTermSets <= 64 else { return nil }
        var deltaPocCounts: [Int] = []
        for index in 0..<shortTermSets {
            guard let count = skipShortTermRefPicSet(&reader, index: index, previous: deltaPocCounts.last) else { return nil }
            deltaPocCounts.append(count)
        }
        guard let longTerm = reader.flag() else { return nil }
        if longTerm {
            guard let count = reader.unsignedGolomb(), count <= 32, reader.skip(count * (pocBitsMinus4 + 4 + 1)) else { return nil }
        }
        guard reader.skip(2), let vui = reader.flag() else { return nil }  // temporal MVP, strong intra smoothing
        guard vui else { return .unspecifiedVideoSignal }
        guard let aspectRatio = reader.flag() else { return nil }
        if aspectRatio {
            guard let idc = reader.bits(8) else { return nil }
            if idc == 255 { guard reader.skip(32) else { return nil } }
        }
        guard let overscan = reader.flag(), !overscan || reader.skip(1), let signalType = reader.flag() else { return nil }
        guard signalType else { return .unspecifiedVideoSignal }
        guard reader.skip(3), let fullRange = reader.flag(), let described = reader.flag() else { return nil }
        guard described else { return NCLX(primaries: 2, transfer: 2, matrix: 2, fullRange: fullRange) }
        guard let primaries = reader.bits(8), let transfer = reader.bits(8), let matrix = reader.bits(8) else { return nil }
        return NCLX(primaries: primaries, transfer: transfer, matrix: matrix, fullRange: fullRange)
    }

    /// Skips `count` Exp-Golomb codes; `se(v)` codes have the same length as `ue(v)` ones.
    private static func skipGolombs(_ reader: inout BitReader, _ count: Int) -> Bool {
        for _ in 0..<count { guard reader.unsignedGolomb() != nil else { return false } }
        return true
    }

    /// scaling_list_data() (§7.3.4).
    private static func skipScalingListData(_ reader: inout BitReader) -> Bool {
        for sizeID in 0..<4 {
            for _ in stride(from: 0, to: 6, by: sizeID == 3 ? 3 : 1) {
                guard let coded = reader.flag() else { return false }
                guard coded else {
                    guard reader.unsignedGolomb() != nil else { return false }  // pred_matrix_id_delta
                    continue
                }
                let coefficients = min(64, 1 << (4 + (sizeID << 1)))
                guard skipGolombs(&reader, coefficients + (sizeID > 1 ? 1 : 0)) else { return false }
            }
        }
        return true
    }

    /// st_ref_pic_set(index) as it appears in an SPS (§7.3.7); returns its NumDeltaPocs.
    /// `previous` is the set before's NumDeltaPocs, which inter prediction walks.
    private static func skipShortTermRefPicSet(_ reader: inout BitReader, index: Int, previous: Int?) -> Int? {
        var predicted = false
        if index > 0 { guard let flag = reader.flag() else { return nil }; predicted = flag }
        if predicted, let previous {
            guard reader.skip(1), reader.unsignedGolomb() != nil else { return nil }  // delta_rps_sign, abs_delta_rps_minus1
            var count = 0
            for _ in 0...previous {
                guard let used = reader.flag() else { return nil }
                var useDelta = true
                if !used { guard let flag = reader.flag() else { return nil }; useDelta = flag }
                if used || useDelta { count += 1 }
            }
            return count <= 32 ? count : nil
        }
        guard let negative = reader.unsignedGolomb(), let positive = reader.unsignedGolomb(),
              negative <= 16, positive <= 16 else { return nil }
        for _ in 0..<(negative + positive) {
            guard reader.unsignedGolomb() != nil, reader.skip(1) else { return nil }
        }
        return negative + positive
    }
}
