import Foundation
import H2JReferenceDecoders

/// The pictures libheif's `unci` test files hold, from the pixel values its own tests
/// (`tests/uncompressed_decode_*.cc`) require of them.
enum KnownPictures {
    /// 4×4 blocks whose colours step through ten, one step per block right and down:
    /// block (bx, by) is `colours[(bx + by) % 10]`. 30×20 (32×20 for the 4:2:2 files).
    static let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 128, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0),
                                                    (255, 255, 0), (0, 255, 255), (128, 128, 128), (255, 165, 0), (238, 130, 238)]

    static func blocks(width: Int, height: Int) -> RGBPicture {
        picture(width, height) { x, y in colours[(x / 4 + y / 4) % 10] }
    }

    /// The 128×72 picture of the generically compressed files: 32×24 blocks.
    static let generic: [[(UInt8, UInt8, UInt8)]] = [
        [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0)],
        [(255, 255, 255), (64, 64, 64), (0, 255, 255), (255, 0, 255)],
        [(192, 192, 192), (255, 255, 0), (255, 175, 175), (255, 200, 0)],
    ]

    static func genericBlocks() -> RGBPicture { picture(128, 72) { x, y in generic[y / 24][x / 32] } }

    static func picture(_ width: Int, _ height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> RGBPicture {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                pixels += [r, g, b]
            }
        }
        return RGBPicture(width: width, height: height, pixels: pixels)
    }

    /// Each sample as its file stores it in `bits` (`⌊v · max / 255⌋`, as libheif's
    /// 5-6-5 test expects 15 for 128) and scaled back to 8 bits, rounded.
    static func quantized(_ picture: RGBPicture, bits: [Int]) -> RGBPicture {
        let pixels = picture.pixels.enumerated().map { index, value -> UInt8 in
            let maximum = (1 << bits[index % 3]) - 1
            let stored = Int(value) * maximum / 255
            return UInt8((stored * 255 + maximum / 2) / maximum)
        }
        return RGBPicture(width: picture.width, height: picture.height, pixels: pixels)
    }

    /// Only the first component, as gray (the monochrome files store the R plane).
    static func redAsGray(_ picture: RGBPicture) -> RGBPicture {
        let pixels = stride(from: 0, to: picture.pixels.count, by: 3).flatMap { [UInt8](repeating: picture.pixels[$0], count: 3) }
        return RGBPicture(width: picture.width, height: picture.height, pixels: pixels)
    }

    /// Row y composited over white with alpha `255 · (20 − y) / 20`, rounded down (the RGBA
    /// file's alpha falls row by row).
    static func fadingRows(_ picture: RGBPicture) -> RGBPicture {
        let pixels = picture.pixels.enumerated().map { index, value -> UInt8 in
            let alpha = 255 * (20 - index / 3 / picture.width) / 20
            return UInt8((Int(value) * alpha + 255 * (255 - alpha) + 127) / 255)
        }
        return RGBPicture(width: picture.width, height: picture.height, pixels: pixels)
    }

    /// BT.601 luma PSNR of `test` against `reference`, in dB (99 when identical).
    static func lumaPSNR(_ test: RGBPicture, _ reference: RGBPicture) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: test.pixels.count, by: 3) {
            let luma = { (p: [UInt8], i: Int) in 0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2]) }
            let d = luma(test.pixels, i) - luma(reference.pixels, i)
            sum += d * d
        }
        let mse = sum / Double(test.pixels.count / 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }
}
