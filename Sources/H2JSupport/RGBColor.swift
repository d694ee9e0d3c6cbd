/// An 8-bit sRGB colour, as given to `--background`.
package struct RGBColor: Equatable, Sendable, CustomStringConvertible {
    package var red: UInt8, green: UInt8, blue: UInt8

    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    package static let white = RGBColor(red: 255, green: 255, blue: 255)

    /// Parses `#rrggbb` (the `#` is optional); nil for anything else.
    package init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        let red = UInt8(truncatingIfNeeded: value >> 16)
        let green = UInt8(truncatingIfNeeded: value >> 8)
        self.init(red: red, green: green, blue: UInt8(truncatingIfNeeded: value))
    }

    /// BT.601 luma of an RGB pixel, in 8-bit fixed point: what an RGB picture written as
    /// gray shows (an auxiliary image, a derived image's gray output).
    @inline(__always)
    package static func fixedPointLuma(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        let weighted: Int = 77 * Int(red) + 150 * Int(green) + 29 * Int(blue)
        return UInt8((weighted + 128) >> 8)
    }

    /// BT.601 luma, for flattening grayscale images.
    package var luma: UInt8 {
        let weighted: Int = 299 * Int(red) + 587 * Int(green) + 114 * Int(blue)
        return UInt8((weighted + 500) / 1000)
    }

    /// Sample `c` of alpha `a` composited over background sample `bg`, rounded: straight
    /// alpha `c·a + bg·(255−a)`, premultiplied `c·255 + bg·(255−a)`, over 255.
    @inline(__always)
    package static func composite(_ c: UInt8, alpha a: Int, over bg: UInt8, premultiplied: Bool = false) -> UInt8 {
        let color = premultiplied ? Int(c) * 255 : Int(c) * a
        return UInt8(min(255, (color + Int(bg) * (255 - a) + 127) / 255))
    }

    package var description: String {
        let hex: [String] = [red, green, blue].map { value in
            let digits = String(value, radix: 16)
            return value < 16 ? "0" + digits : digits
        }
        return "#" + hex.joined()
    }
}
