/// Chroma subsampling of colour JPEGs.
package enum ChromaSubsampling: String, Sendable, CaseIterable {
    case s420 = "420", s422 = "422", s444 = "444"

    /// The luma samples one chroma sample spans across and down: the luma's sampling
    /// factors against chroma's 1×1.
    package var lumaFactors: (x: Int, y: Int) {
        switch self {
        case .s420: (x: 2, y: 2)
        case .s422: (x: 2, y: 1)
        case .s444: (x: 1, y: 1)
        }
    }
}
