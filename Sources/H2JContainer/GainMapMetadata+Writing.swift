import H2JSupport

/// ISO 21496-1 gain-map metadata as a writer makes it: Apple's gain map restated in ISO
/// terms, and the payload of a JPEG's ISO APP2 segment.
extension GainMapMetadata {
    package init(useBaseColourSpace: Bool, baseHDRHeadroom: Fraction, alternateHDRHeadroom: Fraction, channels: [Channel]) {
        self.init(minimumVersion: 0, writerVersion: 0, useBaseColourSpace: useBaseColourSpace,
                  baseHDRHeadroom: baseHDRHeadroom, alternateHDRHeadroom: alternateHDRHeadroom, channels: channels)
    }

    /// Apple's gain map once its codes are remapped to ISO's log encoding (see
    /// `appleCodeMapping`): gain from 0 to log2(`headroom`) stops, gamma 1, no offsets,
    /// an SDR base (headroom 0 stops) and an HDR rendition of log2(`headroom`) stops.
    package static func apple(headroom: Double) -> GainMapMetadata {
        let stops = Fraction(approximating: Math.log2(max(headroom, 1)))
        let zero = Fraction(0, 1)
        return GainMapMetadata(useBaseColourSpace: true, baseHDRHeadroom: zero, alternateHDRHeadroom: stops,
                               channels: [Channel(min: zero, max: stops, gamma: Fraction(1, 1), baseOffset: zero, alternateOffset: zero)])
    }

    /// The 256-entry table that turns Apple's gain-map codes (linear gain, encoded with
    /// the Rec. 709 transfer function) into ISO 21496-1 codes (the fraction of the log
    /// range, gamma 1) for `apple(headroom:)`: `g' = log2(1 + (H − 1)·L(g/255)) / log2(H)`,
    /// with L the inverse of the Rec. 709 OETF. Apple's rule `hdr = sdr·(1 + (H − 1)·g)`
    /// and ISO's `hdr = sdr·2^(log2(H)·g')` then agree at every code.
    package static func appleCodeMapping(headroom: Double) -> [UInt8] {
        let stops = Math.log2(max(headroom, 1))
        guard stops > 0 else { return [UInt8](repeating: 0, count: 256) }
        return (0..<256).map { code in
            let v = Double(code) / 255
            let linear = v < 0.081 ? v / 4.5 : Math.pow((v + 0.099) / 1.099, 1 / 0.45)
            let mapped = Math.log2(1 + (headroom - 1) * linear) / stops
            return UInt8(max(0, min(255, (mapped * 255).rounded())))
        }
    }

    /// The same gain map with base and alternate exchanged: what takes the alternate
    /// rendition back to the base. A gain map's codes always state the gain from the SDR
    /// towards the HDR rendition, and a reader applies it with a negative weight when the
    /// base is the HDR one (ISO 21496-1's weight, as libavif applies it), so only the
    /// headrooms and the offsets change places. The alternate is written in the colour
    /// space the gain applies in, so that space becomes the base's.
    package var exchangingBaseAndAlternate: GainMapMetadata {
        GainMapMetadata(useBaseColourSpace: true, baseHDRHeadroom: alternateHDRHeadroom, alternateHDRHeadroom: baseHDRHeadroom,
                        channels: channels.map {
                            Channel(min: $0.min, max: $0.max, gamma: $0.gamma, baseOffset: $0.alternateOffset, alternateOffset: $0.baseOffset)
                        })
    }

    /// Whether the base image is the HDR rendition (its headroom above the alternate's).
    package var baseIsHDR: Bool {
        (baseHDRHeadroom.value ?? 0) > (alternateHDRHeadroom.value ?? 0)
    }

    /// The payload of a JPEG's ISO APP2 after its signature: versions, flags (multichannel,
    /// base colour space; no common denominator), the headrooms, and each channel's min,
    /// max, gamma and offsets, each a numerator and a denominator (big-endian).
    package var isoPayload: [UInt8] {
        var out = u16(0) + u16(0)
        out.append((channels.count == 3 ? 0x80 : 0) | (useBaseColourSpace ? 0x40 : 0))
        func unsigned(_ f: Fraction) -> [UInt8] { u32(UInt32(clamping: f.numerator)) + u32(f.denominator) }
        func signed(_ f: Fraction) -> [UInt8] { u32(UInt32(bitPattern: Int32(clamping: f.numerator))) + u32(f.denominator) }
        out += unsigned(baseHDRHeadroom) + unsigned(alternateHDRHeadroom)
        for channel in channels {
            out += signed(channel.min) + signed(channel.max) + unsigned(channel.gamma) + signed(channel.baseOffset)
                + signed(channel.alternateOffset)
        }
        return out
    }

    /// The version-only payload the primary of a gain-map JPEG carries.
    package static let isoVersionPayload: [UInt8] = [0, 0, 0, 0]

    private func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    private func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}

extension GainMapMetadata.Fraction {
    /// `value` as a fraction over 1,000,000 (ample for stops and gammas).
    package init(approximating value: Double) {
        let scaled = (value * 1_000_000).rounded()
        self.init(Int64(max(-2_147_483_648, min(2_147_483_647, scaled))), 1_000_000)
    }
}
