import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JLibheif
import H2JSupport

/// libheif's full decode as a `ConversionEngine`, for everything the tile engine does
/// not take (`LibheifItem` opens it): `decode` applies the transforms (or, where
/// libheif 1.15 cannot, `UprightPixels` does) and brings more than 8 bits down to 8;
/// rows go to the sink in bands of 16.
struct LibheifConversion: ConversionEngine {
    private let item: LibheifItem
    private let monochrome: Bool
    private let background: RGBColor
    /// An auxiliary image or a gain map is encoded without chroma subsampling (its
    /// samples are exponents, not colours), and in gray when its channels are equal.
    private let fullChroma: Bool
    /// A photo's chroma subsampling (`--sampling`).
    private let sampling: ChromaSubsampling
    /// Alpha left unflattened, for `forEachUprightAlphaBand` (a derived image's layer).
    private let keepingAlpha: Bool
    private var image: DecodedImage?
    private var upright: UprightPixels?
    /// An RGB image whose three channels are equal everywhere, written as its first.
    private var grayFromRGB = false

    /// Opens the item's handle; nothing is decoded. With `keepingAlpha`, its alpha is not
    /// flattened but read apart (`forEachUprightAlphaBand`).
    init(_ conversion: ConversionContext, keepingAlpha: Bool = false) throws {
        item = try LibheifItem(conversion)
        monochrome = conversion.item.isMonochrome
        self.keepingAlpha = keepingAlpha
        background = conversion.options.background
        fullChroma = conversion.fullChroma
        sampling = conversion.colourSampling
    }

    var kind: ConversionResult.Engine { .libheif }
    var width: Int { item.handle.width }
    var height: Int { item.handle.height }
    var warnings: [Warning] { image?.warnings ?? [] }

    func libraryMetadata() -> SourceMetadata? { item.metadata() }

    mutating func decode() throws {
        let decoded = try DecodedImage(decoding: item.handle, monochrome: monochrome, background: background,
                                       transformed: item.ownTransforms == nil)
        image = decoded
        if let ownTransforms = item.ownTransforms { upright = try UprightPixels(decoded, transforms: ownTransforms) }
        if fullChroma, try components() == 3 {
            var equal = true
            let width = try decodedSize().width
            try forEachBand { rows, stride, count in
                equal = equal && EqualChannels.hold(rows, stride: stride, count: count, width: width)
            }
            grayFromRGB = equal
        }
    }

    /// The decoded size, which is the stream's when an `ispe` says otherwise.
    func pixelFormat() throws -> PixelFormat {
        let (width, height) = try decodedSize()
        return PixelFormat(width: width, height: height,
                           layout: .rows(components: grayFromRGB ? 1 : try components(), subsampling: fullChroma ? .s444 : sampling))
    }

    func emit(into sink: any PixelSink) throws {
        let width = try decodedSize().width
        try forEachBand { (rows, stride, count) throws in
            guard grayFromRGB else { return try sink.writeRows(rows, stride: stride, count: count) }
            let gray = EqualChannels.first(rows, stride: stride, count: count, width: width)
            try gray.withUnsafeBufferPointer { try sink.writeRows($0.baseAddress!, stride: width, count: count) }
        }
    }

    private func decodedSize() throws(LibheifError) -> (width: Int, height: Int) {
        if let upright { return (upright.width, upright.height) }
        let image = try decoded()
        return (image.width, image.height)
    }

    private func components() throws(LibheifError) -> Int {
        if let upright { return upright.components }
        return try decoded().components
    }

    /// The upright pixels in bands of 16 rows: libheif's, or those placed here.
    private func forEachBand(_ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) throws {
        guard let upright else { return try decoded().forEachBand(flatten: !keepingAlpha, body) }
        let rowBytes = upright.width * upright.components
        try upright.pixels.withUnsafeBufferPointer { pixels in
            for row in stride(from: 0, to: upright.height, by: 16) {
                try body(pixels.baseAddress! + row * rowBytes, rowBytes, min(16, upright.height - row))
            }
        }
    }

    private func decoded() throws(LibheifError) -> DecodedImage {
        guard let image else { throw LibheifError(message: "the image was not decoded") }
        return image
    }
}

extension LibheifConversion: UprightBandSource {
    /// The alpha kept apart (libheif's samples); none once `UprightPixels` placed the
    /// image, which flattens it.
    func forEachUprightAlphaBand(_ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) throws -> Bool {
        guard keepingAlpha, upright == nil, let image, image.hasAlpha else { return false }
        try image.forEachAlphaBand(body)
        return true
    }

    var alphaPremultiplied: Bool { image?.isPremultiplied ?? false }
}
