/// How well one picture's light follows another's: a gain map against its photo.
extension RGBPicture {
    /// BT.601 luma of each pixel, row by row.
    package var luma: [Double] {
        stride(from: 0, to: pixels.count, by: 3).map { (i: Int) -> Double in
            let red: Double = 0.299 * Double(pixels[i]), green: Double = 0.587 * Double(pixels[i + 1])
            return red + green + 0.114 * Double(pixels[i + 2])
        }
    }

    /// The luma of a `width` × `height` picture each of whose pixels is the mean of the
    /// pixels of this one it covers (a box filter; every pixel counted once).
    package func luma(boxedTo width: Int, _ height: Int) -> [Double] {
        let full = luma
        var sums = [Double](repeating: 0, count: width * height), counts = [Int](repeating: 0, count: width * height)
        for y in 0..<self.height {
            for x in 0..<self.width {
                let cell = (y * height / self.height) * width + x * width / self.width
                sums[cell] += full[y * self.width + x]
                counts[cell] += 1
            }
        }
        return zip(sums, counts).map { $1 == 0 ? 0 : $0 / Double($1) }
    }

    /// Pearson's correlation of this picture's luma with the luma of `photo` boxed to this
    /// picture's size: near 1 when they lie alike; nil unless their aspect ratios agree.
    package func lumaCorrelation(with photo: RGBPicture) -> Double? {
        guard width * photo.height == height * photo.width else { return nil }
        let a = luma, b = photo.luma(boxedTo: width, height)
        let meanA = a.reduce(0, +) / Double(a.count), meanB = b.reduce(0, +) / Double(b.count)
        var product = 0.0, squaresA = 0.0, squaresB = 0.0
        for (x, y) in zip(a, b) {
            product += (x - meanA) * (y - meanB)
            squaresA += (x - meanA) * (x - meanA)
            squaresB += (y - meanB) * (y - meanB)
        }
        return squaresA == 0 || squaresB == 0 ? 0 : product / (squaresA * squaresB).squareRoot()
    }
}
