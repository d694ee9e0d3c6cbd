/// The curve that brings HDR light into SDR's range, on linear light in units of BT.2408
/// reference white (203 cd/m² is 1) in, SDR linear (1 is SDR white) out.
///
/// Identity up to the knee `k` (0.95): everything up to just below diffuse white keeps
/// its level, so skin, grey cards and shadows look as the SDR rendition of the scene
/// would. Above it, a rational roll-off `f(L) = k + u / (1 + u/W)`, `u = L − k`,
/// `1/W = 1/(1 − k) − 1/(P − k)`, compresses everything up to the source's peak `P`
/// into the last 5 % below SDR white: continuous with slope 1 at the knee, strictly
/// increasing, `f(P) = 1` exactly. Reference white itself lands at 0.975 of SDR white
/// (PQ and HLG alike), within 3 % of it as BT.2408 intends. The highlights above it get
/// the last few codes only: they are what an Ultra HDR gain map restores.
package struct SDRToneCurve: Sendable, Equatable {
    /// Where the roll-off starts, as a fraction of SDR white.
    package static let knee = 0.95
    /// The source's peak in units of reference white (above 1).
    package let peak: Double
    private let inverseWidth: Double

    package init(peak: Double) {
        self.peak = max(peak, 1.01)
        inverseWidth = 1 / (1 - Self.knee) - 1 / (self.peak - Self.knee)
    }

    /// SDR linear light for `light` (units of reference white); 1 at and above the peak.
    package func callAsFunction(_ light: Double) -> Double {
        guard light > Self.knee else { return max(light, 0) }
        guard light < peak else { return 1 }
        let u = light - Self.knee
        return Self.knee + u / (1 + u * inverseWidth)
    }
}
