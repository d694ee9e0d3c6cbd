/// What `compare --html` shows of one source, made in the worker that measures it (every
/// decoder stays out of the parent): small JPEGs only, which the parent checks
/// (`ComparisonPictures.Output.cropRect` inside its output, every picture a JPEG of the
/// stated size) and puts in the page as they are.
package struct ComparisonPictures: Equatable, Sendable {
    /// The longest side of a preview, in pixels.
    package static let previewSide = 400
    /// The longest side of a heat map: each of its pixels averages a block of the output
    /// (a 12 MP photo's are 20 pixels wide), where per-pixel differences would be noise.
    package static let heatSide = 200
    /// The side of a crop at 1:1 (smaller outputs give a smaller one).
    package static let cropSide = 192
    /// Most bytes one picture may take: a 400-pixel preview is tens of kilobytes.
    package static let maxPictureBytes = 1 << 20

    /// One output's pictures, in the order the outputs were measured.
    package struct Output: Equatable, Sendable {
        /// The output reduced to fit `previewSide`.
        package let preview: [UInt8]
        /// The output's own pixels in `cropRect`, at 1:1.
        package let crop: [UInt8]
        /// The source, at the output's size, in the same rectangle.
        package let sourceCrop: [UInt8]
        /// The mean |ΔY| of each of its pixels' area, coloured (`HeatRamp`), fitted to `heatSide`.
        package let heatMap: [UInt8]
        /// Where the crops lie, in the output's pixels.
        package let cropRect: PictureRect
        /// The mean |ΔY| over the output, in 8-bit luma levels.
        package let meanDifference: Double
        /// The largest |ΔY| of one pixel, in 8-bit luma levels.
        package let maxDifference: Int

        package init(preview: [UInt8], crop: [UInt8], sourceCrop: [UInt8], heatMap: [UInt8], cropRect: PictureRect,
                     meanDifference: Double, maxDifference: Int) {
            (self.preview, self.crop, self.sourceCrop, self.heatMap) = (preview, crop, sourceCrop, heatMap)
            (self.cropRect, self.meanDifference, self.maxDifference) = (cropRect, meanDifference, maxDifference)
        }
    }

    /// The source as libheif decodes it, reduced to fit `previewSide`.
    package let source: [UInt8]
    package let outputs: [Output]

    package init(source: [UInt8], outputs: [Output]) {
        self.source = source
        self.outputs = outputs
    }

    /// A preview's size: `width`×`height` scaled to fit `side` (never enlarged), at least 1×1.
    package static func fitted(width: Int, height: Int, side: Int = previewSide) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > side else { return (width, height) }
        return (max(1, (width * side + longest / 2) / longest), max(1, (height * side + longest / 2) / longest))
    }
}

/// A rectangle of pixels.
package struct PictureRect: Equatable, Sendable {
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// Whether it is not empty and lies wholly inside a `width`×`height` picture.
    package func isInside(width outer: Int, height outerHeight: Int) -> Bool {
        width > 0 && height > 0 && x >= 0 && y >= 0 && x <= outer - width && y <= outerHeight - height
    }
}
