#if canImport(Glibc)
import Glibc
#endif

/// The two HDR transfer functions of ITU-R BT.2100 that a source's nclx can name, and
/// how each turns a code into light.
///
/// - PQ (SMPTE ST 2084, transfer 16) is display-referred: a code is an absolute
///   luminance, 0 to 10,000 cd/m² (the EOTF).
/// - HLG (ARIB STD-B67, transfer 18) is scene-referred: a code is relative scene light
///   (the inverse OETF); the OOTF then renders it on the BT.2100 reference display, peak
///   1,000 cd/m², system gamma 1.2, so that 75 % HLG is 203 cd/m².
package enum HDRTransfer: Sendable, Equatable {
    case pq
    case hlg

    /// BT.2408's HDR reference white (diffuse white, a sheet of paper): 203 cd/m². The
    /// tone mapping puts it at SDR white, and the Ultra HDR rendition's 1.0 means it.
    package static let referenceWhite = 203.0

    /// nil for a transfer that is not HDR.
    package init?(nclxTransfer: Int) {
        switch nclxTransfer {
        case 16: self = .pq
        case 18: self = .hlg
        default: return nil
        }
    }

    /// `PQ (SMPTE ST 2084)`, `HLG (ARIB STD-B67)`.
    package var name: String { self == .pq ? "PQ (SMPTE ST 2084)" : "HLG (ARIB STD-B67)" }

    /// The brightest luminance the signal can describe, in cd/m²: PQ's 10,000, and for
    /// HLG the 1,000 of BT.2100's reference display.
    package var peak: Double { self == .pq ? 10_000 : 1_000 }

    /// PQ's EOTF: a normalised code (0…1) → display luminance in cd/m².
    package static func pqEOTF(_ signal: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(min(max(signal, 0), 1), 1 / m2)
        return 10_000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// HLG's inverse OETF: a normalised code (0…1) → scene-linear light (0…1).
    package static func hlgInverseOETF(_ signal: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let e = min(max(signal, 0), 1)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    /// HLG's OOTF factor on the reference display (peak 1,000 cd/m², γ 1.2): display
    /// luminance in cd/m² of each channel is `factor · E`, for scene luminance `ys`
    /// (BT.2020 weights of the scene-linear channels).
    package static func hlgOOTFFactor(sceneLuminance ys: Double) -> Double {
        1_000 * pow(max(ys, 0), 0.2)
    }

    /// Linear light of every code of a `bitDepth`-bit full-range channel: PQ in units of
    /// reference white (203 cd/m² is 1), HLG as scene light (0…1), to which the OOTF is
    /// applied per pixel because it depends on the pixel's luminance.
    package func linearTable(bitDepth: Int) -> [Float] {
        let maximum = Double((1 << bitDepth) - 1)
        return (0...Int(maximum)).map { code in
            let signal = Double(code) / maximum
            return Float(self == .pq ? Self.pqEOTF(signal) / Self.referenceWhite : Self.hlgInverseOETF(signal))
        }
    }
}
