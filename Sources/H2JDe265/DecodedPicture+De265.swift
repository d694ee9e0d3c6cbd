import CDe265
import H2JTiles

extension DecodedPicture {
    /// Reads a picture's description and planes from libde265; throws when libde265
    /// describes something inconsistent (no plane buffer, plane sizes that do not follow
    /// from the chroma format).
    init(_ image: OpaquePointer) throws(TileDecodingError) {
        let chromaFormat = Int(de265_get_chroma_format(image).rawValue)
        let width = Int(de265_get_image_width(image, 0))
        let height = Int(de265_get_image_height(image, 0))
        let bitDepth = Int(de265_get_bits_per_pixel(image, 0))
        let bitDepthChroma = Int(de265_get_bits_per_pixel(image, 1))
        guard (0...3).contains(chromaFormat), width > 0, height > 0 else {
            throw TileDecodingError("libde265 returned a \(width)×\(height) picture with chroma format \(chromaFormat)")
        }
        var planes: [(pointer: UnsafePointer<UInt8>, stride: Int)] = []
        for index in 0..<(chromaFormat == 0 ? 1 : 3) {
            var stride: Int32 = 0
            let channel = Int32(index)
            let (planeWidth, planeHeight) = (Int(de265_get_image_width(image, channel)), Int(de265_get_image_height(image, channel)))
            let expected = DecodedPicture.planeSize(index, width: width, height: height, chromaFormat: chromaFormat)
            let sampleBytes = index == 0 ? (bitDepth + 7) / 8 : (bitDepthChroma + 7) / 8
            guard let pointer = de265_get_image_plane(image, channel, &stride),
                  planeWidth == expected.width, planeHeight == expected.height, Int(stride) >= planeWidth * sampleBytes
            else {
                throw TileDecodingError("libde265 returned an unusable plane \(index) (\(planeWidth)×\(planeHeight), stride \(stride)) for a \(width)×\(height) picture")
            }
            planes.append((pointer, Int(stride)))
        }
        self.init(width: width, height: height, chromaFormat: chromaFormat, bitDepth: bitDepth,
                  bitDepthChroma: bitDepthChroma, planes: planes)
    }
}
