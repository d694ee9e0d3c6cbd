/// The chromaticities an nclx `colour_primaries` code names (ITU-T H.273 Table 2).
package struct ColourPrimaries: Equatable, Sendable {
    package let red: (x: Double, y: Double)
    package let green: (x: Double, y: Double)
    package let blue: (x: Double, y: Double)
    package let white: (x: Double, y: Double)

    package static func == (a: Self, b: Self) -> Bool {
        a.red == b.red && a.green == b.green && a.blue == b.blue && a.white == b.white
    }

    /// nil for reserved or unspecified codes.
    package init?(code: Int) {
        let d65 = (0.3127, 0.3290)
        switch code {
        case 1: self.init((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), d65)        // BT.709, sRGB
        case 4: self.init((0.67, 0.33), (0.21, 0.71), (0.14, 0.08), (0.310, 0.316))  // BT.470 M
        case 5: self.init((0.64, 0.33), (0.29, 0.60), (0.15, 0.06), d65)             // BT.601 625
        case 6, 7: self.init((0.630, 0.340), (0.310, 0.595), (0.155, 0.070), d65)    // BT.601 525, SMPTE 240M
        case 8: self.init((0.681, 0.319), (0.243, 0.692), (0.145, 0.049), (0.310, 0.316)) // generic film
        case 9: self.init((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), d65)       // BT.2020
        case 10: self.init((1, 0), (0, 1), (0, 0), (1.0 / 3, 1.0 / 3))               // XYZ
        case 11: self.init((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351)) // DCI-P3
        case 12: self.init((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), d65)      // Display P3
        case 22: self.init((0.630, 0.340), (0.295, 0.605), (0.155, 0.077), d65)      // EBU 3213
        default: return nil
        }
    }

    private init(_ red: (Double, Double), _ green: (Double, Double), _ blue: (Double, Double), _ white: (Double, Double)) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }

    /// Kr and Kb derived from the chromaticities (H.273 equations 39–44), as matrix
    /// codes 12 and 13 require; nil when the primaries are degenerate.
    package var lumaWeights: (Double, Double)? {
        let zr = 1 - (red.x + red.y), zg = 1 - (green.x + green.y)
        let zb = 1 - (blue.x + blue.y), zw = 1 - (white.x + white.y)
        let denominator = white.y * (red.x * (green.y * zb - blue.y * zg) + green.x * (blue.y * zr - red.y * zb)
            + blue.x * (red.y * zg - green.y * zr))
        guard denominator != 0 else { return nil }
        let kr = red.y * (white.x * (green.y * zb - blue.y * zg) + white.y * (blue.x * zg - green.x * zb)
            + zw * (green.x * blue.y - blue.x * green.y)) / denominator
        let kb = blue.y * (white.x * (red.y * zg - green.y * zr) + white.y * (green.x * zr - red.x * zg)
            + zw * (red.x * green.y - green.x * red.y)) / denominator
        return (kr, kb)
    }
}

extension NCLX {
    /// Kr and Kb of matrix `coefficients` as libheif 1.15 reads them: 1 BT.709, 4 FCC,
    /// 7 SMPTE 240M, 9/10 BT.2020, 12/13 derived from `primaries`; (0.299, 0.114), BT.601,
    /// for anything else.
    package static func lumaWeights(matrix coefficients: Int, primaries: Int) -> (Double, Double) {
        switch coefficients {
        case 1: return (0.2126, 0.0722)
        case 4: return (0.30, 0.11)
        case 7: return (0.212, 0.087)
        case 9, 10: return (0.2627, 0.0593)
        case 12, 13: return ColourPrimaries(code: primaries)?.lumaWeights ?? (0.299, 0.114)
        default: return (0.299, 0.114)
        }
    }
}
