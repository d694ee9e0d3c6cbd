/// The colours of `compare --html`'s heat maps: black for no difference, through purple,
/// red and orange to pale yellow at `fullScale` levels of |ΔY| or more. The square root
/// spreads the small differences a JPEG makes, which a straight scale would leave black.
package enum HeatRamp {
    /// |ΔY|, in 8-bit luma levels, that reaches the last colour.
    package static let fullScale = 16.0
    /// The ramp's stops, evenly spaced in √(|ΔY| / `fullScale`).
    package static let stops: [(Double, Double, Double)] = [(0, 0, 0), (80, 18, 123), (200, 40, 80), (250, 140, 20), (255, 250, 190)]

    /// The colour of a mean |ΔY| of `levels`.
    package static func colour(_ levels: Double) -> (UInt8, UInt8, UInt8) {
        let t = min(1, max(0, levels / fullScale).squareRoot()) * Double(stops.count - 1)
        let index = min(Int(t), stops.count - 2)
        let f = t - Double(index)
        let (a, b) = (stops[index], stops[index + 1])
        func mix(_ x: Double, _ y: Double) -> UInt8 { UInt8(max(0, min(255, (x + (y - x) * f).rounded()))) }
        return (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }
}
