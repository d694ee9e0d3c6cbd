import H2JContainer

/// Linear RGB of one set of primaries re-expressed in another (both with D65 white, as
/// every HDR source and our outputs are), through CIE XYZ, and brought into the target
/// gamut without changing hue or luminance.
///
/// Matrices are derived from the H.273 chromaticities (`ColourPrimaries`), never typed in.
package struct PrimariesConversion: Sendable, Equatable {
    /// Row-major 3×3: target RGB = matrix · source RGB.
    package let matrix: [Double]
    /// The target's luminance weights (the Y row of its RGB → XYZ matrix).
    package let targetLuminance: [Double]

    /// nil when either set of primaries is unknown or degenerate.
    package init?(from source: ColourPrimaries, to target: ColourPrimaries) {
        guard let toXYZ = Self.rgbToXYZ(source), let targetToXYZ = Self.rgbToXYZ(target),
              let fromXYZ = Self.inverse(targetToXYZ) else { return nil }
        matrix = Self.product(fromXYZ, toXYZ)
        targetLuminance = Array(targetToXYZ[3..<6])
    }

    /// Brings a colour with a negative channel (outside the target gamut) back onto the
    /// gamut's edge by mixing it with grey of its own luminance, the least change that
    /// keeps hue and luminance; a colour of no luminance becomes black.
    @inline(__always)
    package static func intoGamut(_ r: inout Float, _ g: inout Float, _ b: inout Float, luminance y: Float) {
        let lowest = min(r, g, b)
        guard lowest < 0 else { return }
        guard y > 0 else { r = 0; g = 0; b = 0; return }
        let t = y / (y - lowest)
        r = y + t * (r - y)
        g = y + t * (g - y)
        b = y + t * (b - y)
    }

    /// The RGB → XYZ matrix of a set of primaries, scaled so that white has Y = 1.
    static func rgbToXYZ(_ p: ColourPrimaries) -> [Double]? {
        let chromaticities = [p.red, p.green, p.blue]
        guard chromaticities.allSatisfy({ $0.y > 0 }), p.white.y > 0 else { return nil }
        let columns = chromaticities.map { [$0.x / $0.y, 1, (1 - $0.x - $0.y) / $0.y] }
        let primaries = (0..<3).flatMap { row in (0..<3).map { columns[$0][row] } }
        guard let inverse = inverse(primaries) else { return nil }
        let white = [p.white.x / p.white.y, 1, (1 - p.white.x - p.white.y) / p.white.y]
        let scale = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + inverse[row * 3 + $1] * white[$1] } }
        return (0..<9).map { primaries[$0] * scale[$0 % 3] }
    }

    static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(0.0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    /// The inverse of a 3×3 matrix; nil when it is singular.
    static func inverse(_ m: [Double]) -> [Double]? {
        let cofactors: [Double] = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard abs(determinant) > 1e-12 else { return nil }
        return cofactors.map { $0 / determinant }
    }
}
