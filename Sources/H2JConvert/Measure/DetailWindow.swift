import H2JJob

/// Where `compare --html`'s crops lie: the window of a picture with the most detail (the
/// largest sum of luma gradients), where a JPEG's losses show. Chosen once on the source's
/// preview and placed at the same relative spot in every output.
enum DetailWindow {
    /// The centre of the `side`×`side` window of `preview` with the most detail, as
    /// fractions of its width and height.
    static func centre(of preview: PicturePixels, side: Int) -> (x: Double, y: Double) {
        let (w, h, c) = (preview.width, preview.height, preview.components)
        let side = max(1, min(side, w, h))
        // Summed-area table of |∂x| + |∂y| of luma (the first channel serves for gray).
        var table = [Int](repeating: 0, count: (w + 1) * (h + 1))
        func luma(_ x: Int, _ y: Int) -> Int {
            let at = (y * w + x) * c
            return c == 1 ? Int(preview.bytes[at]) : (299 * Int(preview.bytes[at]) + 587 * Int(preview.bytes[at + 1]) + 114 * Int(preview.bytes[at + 2])) / 1000
        }
        for y in 0..<h {
            var row = 0
            for x in 0..<w {
                let here = luma(x, y)
                row += (x + 1 < w ? abs(luma(x + 1, y) - here) : 0) + (y + 1 < h ? abs(luma(x, y + 1) - here) : 0)
                table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + row
            }
        }
        var best = (sum: -1, x: 0, y: 0)
        for y in 0...(h - side) {
            for x in 0...(w - side) {
                let sum = table[(y + side) * (w + 1) + x + side] - table[y * (w + 1) + x + side]
                    - table[(y + side) * (w + 1) + x] + table[y * (w + 1) + x]
                if sum > best.sum { best = (sum, x, y) }
            }
        }
        return ((Double(best.x) + Double(side) / 2) / Double(w), (Double(best.y) + Double(side) / 2) / Double(h))
    }

    /// The crop of a `width`×`height` output centred as near `centre` as fits.
    static func rect(centre: (x: Double, y: Double), width: Int, height: Int, side: Int) -> PictureRect {
        let (cw, ch) = (min(side, width), min(side, height))
        let x = min(max(0, Int((centre.x * Double(width)).rounded()) - cw / 2), width - cw)
        let y = min(max(0, Int((centre.y * Double(height)).rounded()) - ch / 2), height - ch)
        return PictureRect(x: x, y: y, width: cw, height: ch)
    }
}
