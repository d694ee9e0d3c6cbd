import H2JJPEG
import H2JJob

/// The parent's check of the pictures a worker made for `compare --html` before they go
/// into the page: each is a JPEG whose frame header gives the size it must have (the
/// previews and heat maps fitted to their image, each crop its rectangle's), and each
/// crop rectangle lies inside its output. The pictures are not decoded here.
enum PictureCheck {
    static func check(_ pictures: ComparisonPictures, source: (width: Int, height: Int),
                      outputs: [(width: Int, height: Int)]) throws(CompareError) {
        guard pictures.outputs.count == outputs.count else { throw CompareError("the decoder process sent pictures of \(pictures.outputs.count) outputs, not \(outputs.count)") }
        try frame(pictures.source, ComparisonPictures.fitted(width: source.width, height: source.height), "the source's preview")
        for (made, size) in zip(pictures.outputs, outputs) {
            guard made.cropRect.isInside(width: size.width, height: size.height) else {
                throw CompareError("the decoder process sent a crop outside its \(size.width)×\(size.height) output")
            }
            let fitted = ComparisonPictures.fitted(width: size.width, height: size.height)
            try frame(made.preview, fitted, "an output's preview")
            try frame(made.heatMap, ComparisonPictures.fitted(width: size.width, height: size.height, side: ComparisonPictures.heatSide), "a heat map")
            try frame(made.crop, (made.cropRect.width, made.cropRect.height), "an output's crop")
            try frame(made.sourceCrop, (made.cropRect.width, made.cropRect.height), "the source's crop")
        }
    }

    private static func frame(_ jpeg: [UInt8], _ size: (width: Int, height: Int), _ what: String) throws(CompareError) {
        guard let header = JPEGSegments(jpeg)?.frameHeader, header.width == size.width, header.height == size.height else {
            throw CompareError("the decoder process sent \(what) that is not a \(size.width)×\(size.height) JPEG")
        }
    }
}
