import H2JJob

/// Interleaved 8-bit pixels held whole: a small picture `compare --html` shows (a preview,
/// a crop, a heat map) before it is encoded (`SmallJPEG`).
///
/// Invariant: `bytes.count == width * height * components`.
struct PicturePixels {
    let width: Int
    let height: Int
    /// 1 (gray) or 3 (RGB).
    let components: Int
    var bytes: [UInt8]

    init(width: Int, height: Int, components: Int) {
        (self.width, self.height, self.components) = (width, height, components)
        bytes = [UInt8](repeating: 0, count: width * height * components)
    }

    /// A picture `feed` fills with `height` rows of `width`×`components`, reduced to
    /// `size` by the converter's own `Resize` (copied when it is that size already).
    static func reduced(width: Int, height: Int, components: Int, to size: (width: Int, height: Int),
                        _ feed: (any PixelSink) throws -> Void) throws -> PicturePixels {
        let filling = Filling(PicturePixels(width: size.width, height: size.height, components: components))
        let rows = RowSink { rows, stride, count in filling.take(rows, stride: stride, count: count) }
        let input = PixelFormat(width: width, height: height, layout: .rows(components: components, subsampling: .s444))
        try feed(size == (width, height) ? rows : Resize(width: size.width, height: size.height).sink(input: input, into: rows))
        guard filling.filled == size.height else { throw CompareError("a picture of \(filling.filled) rows, not \(size.height)") }
        return filling.picture
    }

    /// What a row sink fills, top to bottom.
    private final class Filling {
        var picture: PicturePixels
        var filled = 0

        init(_ picture: PicturePixels) { self.picture = picture }

        func take(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) {
            let rowBytes = picture.width * picture.components
            for r in 0..<min(count, picture.height - filled) {
                let at = (filled + r) * rowBytes
                picture.bytes.withUnsafeMutableBufferPointer { ($0.baseAddress! + at).update(from: rows + r * stride, count: rowBytes) }
            }
            filled += count
        }
    }
}
