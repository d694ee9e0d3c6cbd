import H2JSupport

/// A `clap` property (ISO/IEC 14496-12 §12.1.4): a crop given as a size and a centre
/// offset, each a fraction. The offsets are signed (the standard's text says so; its
/// syntax table does not).
package struct CleanAperture: Sendable, Equatable {
    package let widthNumerator: Int
    package let widthDenominator: Int
    package let heightNumerator: Int
    package let heightDenominator: Int
    package let horizontalOffsetNumerator: Int
    package let horizontalOffsetDenominator: Int
    package let verticalOffsetNumerator: Int
    package let verticalOffsetDenominator: Int

    /// Parses a `clap` payload (a plain Box: eight 32-bit fields). Like libheif 1.15, refuses
    /// unsigned fields above `Int32.max`; zero denominators parse, and `cropRect` is then nil.
    static func parse(_ payload: [UInt8]) throws(HEIFError) -> CleanAperture {
        let reader = ByteReader(payload)
        var fields: [UInt32] = []
        for index in 0..<8 {
            guard let field = reader.u32(index * 4) else { throw .malformedBox("clap", reason: "\(payload.count) bytes, 32 needed") }
            fields.append(field)
        }
        for index in [0, 1, 2, 3, 5, 7] where fields[index] > UInt32(Int32.max) {
            throw .malformedBox("clap", reason: "value \(fields[index]) is above \(Int32.max)")
        }
        return CleanAperture(widthNumerator: Int(fields[0]), widthDenominator: Int(fields[1]),
                             heightNumerator: Int(fields[2]), heightDenominator: Int(fields[3]),
                             horizontalOffsetNumerator: Int(Int32(bitPattern: fields[4])), horizontalOffsetDenominator: Int(fields[5]),
                             verticalOffsetNumerator: Int(Int32(bitPattern: fields[6])), verticalOffsetDenominator: Int(fields[7]))
    }

    /// The pixels libheif 1.15 keeps when it applies this `clap` to an image of the given
    /// size (`HeifContext::decode_image_planar` with `Box_clap::left_rounded` & co.), or nil
    /// where libheif fails: a zero denominator, or a crop that is empty once clamped.
    ///
    /// Rounding, in libheif's 32-bit `Fraction` arithmetic (which halves numerator and
    /// denominator while either exceeds 65536 in magnitude; sums of fractions with unequal
    /// denominators cross-multiply, wrapping on overflow; divisions truncate toward zero):
    /// - left   = trunc(hOffset + (W − 1)/2 − (clapWidth − 1)/2)
    /// - right  = round(clapWidth − 1 + left)
    /// - top    = round(vOffset + (H − 1)/2 − (clapHeight − 1)/2)   (rounded, unlike left)
    /// - bottom = round(clapHeight − 1 + top)
    /// where round(n/d) = trunc((n + trunc(d/2)) / d). Then left and top are clamped to 0,
    /// right to W − 1, bottom to H − 1; the crop is `right − left + 1` by `bottom − top + 1`.
    /// This can differ by a pixel from the handle size libheif reports (round(clapWidth)).
    package func cropRect(imageWidth: Int, imageHeight: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard imageWidth > 0, imageHeight > 0, let lastX = Int32(exactly: imageWidth - 1), let lastY = Int32(exactly: imageHeight - 1),
              let width = LibheifFraction(exactly: widthNumerator, widthDenominator),
              let height = LibheifFraction(exactly: heightNumerator, heightDenominator),
              let horizontalOffset = LibheifFraction(exactly: horizontalOffsetNumerator, horizontalOffsetDenominator),
              let verticalOffset = LibheifFraction(exactly: verticalOffsetNumerator, verticalOffsetDenominator),
              // Box_clap::parse refuses a denominator that the reduction turned to 0.
              width.isValid, height.isValid, horizontalOffset.isValid, verticalOffset.isValid,
              let left = horizontalOffset.plus(LibheifFraction(lastX, 2)).minus(width.minus(1).dividedBy(2)).roundedDown(),
              let right = width.minus(1).plus(left).rounded(),
              let top = verticalOffset.plus(LibheifFraction(lastY, 2)).minus(height.minus(1).dividedBy(2)).rounded(),
              let bottom = height.minus(1).plus(top).rounded()
        else { return nil }
        let x = max(Int(left), 0), y = max(Int(top), 0)
        let lastColumn = min(Int(right), imageWidth - 1), lastRow = min(Int(bottom), imageHeight - 1)
        guard x <= lastColumn, y <= lastRow else { return nil }
        return (x, y, lastColumn - x + 1, lastRow - y + 1)
    }

    /// This crop of an image of size `from` restated for an image of size `to` that shows
    /// the same scene (a gain map): `cropRect`'s edges scaled per axis, rounded to the
    /// nearest pixel, at least one pixel and inside the image; nil where `cropRect` is.
    package func scaled(from: ImageSize, to: ImageSize) -> CleanAperture? {
        guard to.width > 0, to.height > 0, let crop = cropRect(imageWidth: from.width, imageHeight: from.height) else { return nil }
        func span(_ start: Int, _ length: Int, _ from: Int, _ to: Int) -> (start: Int, length: Int) {
            func scaled(_ edge: Int) -> Int { (2 * edge * to + from) / (2 * from) }
            let first = min(scaled(start), to - 1)
            return (first, max(min(scaled(start + length), to), first + 1) - first)
        }
        let (x, width) = span(crop.x, crop.width, from.width, to.width)
        let (y, height) = span(crop.y, crop.height, from.height, to.height)
        // Offsets in halves, so that `cropRect` gives back exactly (x, y, width, height).
        return CleanAperture(widthNumerator: width, widthDenominator: 1, heightNumerator: height, heightDenominator: 1,
                             horizontalOffsetNumerator: 2 * x + width - to.width, horizontalOffsetDenominator: 2,
                             verticalOffsetNumerator: 2 * y + height - to.height, verticalOffsetDenominator: 2)
    }
}

/// libheif 1.15's `heif::Fraction` (box.cc), bit for bit: 32-bit fields, reduced on
/// construction, C++ signed overflow taken as wrapping. Where libheif would divide by zero
/// (or overflow a division), the result is nil instead of a crash.
private struct LibheifFraction {
    static let maxValue: Int32 = 0x10000
    let numerator: Int32
    let denominator: Int32

    init(_ numerator: Int32, _ denominator: Int32) {
        var (n, d) = (numerator, denominator)
        while d > Self.maxValue || d < -Self.maxValue {
            n /= 2
            d /= 2
        }
        // Debian's 1.15.1-1+deb12u1 carries upstream e05e15b5 (CVE-2023-29659): stop at denominator 1.
        while d > 1 && (n > Self.maxValue || n < -Self.maxValue) {
            n /= 2
            d /= 2
        }
        (self.numerator, self.denominator) = (n, d)
    }

    /// The fraction of two values that fit in 32 bits, else nil.
    init?(exactly numerator: Int, _ denominator: Int) {
        guard let n = Int32(exactly: numerator), let d = Int32(exactly: denominator) else { return nil }
        self.init(n, d)
    }

    var isValid: Bool { denominator != 0 }

    func plus(_ b: LibheifFraction) -> LibheifFraction {
        denominator == b.denominator
            ? LibheifFraction(numerator &+ b.numerator, denominator)
            : LibheifFraction(numerator &* b.denominator &+ b.numerator &* denominator, denominator &* b.denominator)
    }

    func minus(_ b: LibheifFraction) -> LibheifFraction {
        denominator == b.denominator
            ? LibheifFraction(numerator &- b.numerator, denominator)
            : LibheifFraction(numerator &* b.denominator &- b.numerator &* denominator, denominator &* b.denominator)
    }

    func plus(_ v: Int32) -> LibheifFraction { LibheifFraction(numerator &+ v &* denominator, denominator) }
    func minus(_ v: Int32) -> LibheifFraction { LibheifFraction(numerator &- v &* denominator, denominator) }
    func dividedBy(_ v: Int32) -> LibheifFraction { LibheifFraction(numerator, denominator &* v) }

    /// `round_down`: C++ integer division, truncating toward zero.
    func roundedDown() -> Int32? { Self.divide(numerator, denominator) }
    /// `round`: `(numerator + denominator / 2) / denominator`.
    func rounded() -> Int32? { Self.divide(numerator &+ denominator / 2, denominator) }

    private static func divide(_ a: Int32, _ b: Int32) -> Int32? {
        guard b != 0 else { return nil }
        let (quotient, overflow) = a.dividedReportingOverflow(by: b)
        return overflow ? nil : quotient
    }
}
