import H2JSupport

/// A JPEG frame header (SOFn, ITU-T T.81 §B.2.2): sample precision, size and each
/// component's sampling factors.
package struct JPEGFrameHeader: Sendable, Equatable {
    package struct Component: Sendable, Equatable {
        package let horizontalSampling: Int
        package let verticalSampling: Int
    }

    /// The SOFn marker code (`0xC0`…`0xCF` less DHT, JPG and DAC).
    package let marker: UInt8
    /// Bits per sample: 8 or 12 (2–16 for lossless).
    package let precision: Int
    package let width: Int
    /// 0 when the height is given later by a DNL marker.
    package let height: Int
    package let components: [Component]

    /// True for the markers that start a frame: SOF0–3, 5–7, 9–11, 13–15.
    package static func isFrameMarker(_ code: UInt8) -> Bool {
        (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
    }

    /// Parses a SOFn payload (after the length); nil when it is cut short.
    package static func parse(marker: UInt8, payload: [UInt8]) -> JPEGFrameHeader? {
        let reader = ByteReader(payload)
        guard let precision = reader.u8(0), let height = reader.u16(1), let width = reader.u16(3),
              let count = reader.u8(5) else { return nil }
        var components: [Component] = []
        for index in 0..<Int(count) {
            guard let sampling = reader.u8(7 + 3 * index) else { return nil }
            components.append(Component(horizontalSampling: Int(sampling >> 4), verticalSampling: Int(sampling & 0x0F)))
        }
        return JPEGFrameHeader(marker: marker, precision: Int(precision), width: Int(width), height: Int(height),
                               components: components)
    }

    /// How the frame is coded, by its marker.
    package var coding: String {
        switch marker {
        case 0xC0: "baseline"
        case 0xC1, 0xC9: "extended sequential"
        case 0xC2, 0xCA: "progressive"
        case 0xC3, 0xCB: "lossless"
        default: "hierarchical"
        }
    }

    /// The chroma subsampling as J:a:b (`4:2:0`, `4:2:2`, `4:4:4`, `4:4:0`, `4:1:1`, or
    /// `4:0:0` for one component), from the first component's sampling factors against
    /// the others'; nil for other component counts or factors that do not divide.
    package var chroma: String? {
        if components.count == 1 { return "4:0:0" }
        guard components.count == 3, let luma = components.first else { return nil }
        let chroma = components.dropFirst()
        guard chroma.allSatisfy({ $0.horizontalSampling == chroma.first?.horizontalSampling
                  && $0.verticalSampling == chroma.first?.verticalSampling }),
              let first = chroma.first, first.horizontalSampling > 0, first.verticalSampling > 0,
              luma.horizontalSampling % first.horizontalSampling == 0, luma.verticalSampling % first.verticalSampling == 0
        else { return nil }
        switch (luma.horizontalSampling / first.horizontalSampling, luma.verticalSampling / first.verticalSampling) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        default: return nil
        }
    }
}

extension JPEGSegments {
    /// The frame header (the first SOFn before the scan); nil when there is none or it is cut short.
    package var frameHeader: JPEGFrameHeader? {
        guard let segment = segments.first(where: { JPEGFrameHeader.isFrameMarker($0.marker) }) else { return nil }
        return JPEGFrameHeader.parse(marker: segment.marker, payload: Array(bytes[segment.payload]))
    }
}
