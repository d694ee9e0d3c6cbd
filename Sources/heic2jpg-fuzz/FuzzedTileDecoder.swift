import H2JAVCodec
import H2JContainer
import H2JTiles

/// The tile engine's decoder over fuzzed tiles: each `hvc1` item's `hvcC` and data go
/// through libavcodec (`AVCodecTileDecoder`, dlopened; skipped where it does not load),
/// and every sample of a picture that comes out is read, so a plane or stride that does
/// not match the picture shows up as a crash. libde265 is not linked here.
enum FuzzedTileDecoder {
    /// Pictures larger than this (by every SPS in the `hvcC`) are not decoded: a fuzzed
    /// SPS can ask for 8K, which costs time, not coverage.
    static let maxPixels = 1 << 18

    /// One decoder for the whole run, reused as the engine reuses a lane's.
    nonisolated(unsafe) static let decoder: AVCodecTileDecoder? = try? AVCodecTileDecoder()

    static func decode(_ configuration: HEVCConfiguration, _ data: [UInt8]) {
        guard let decoder else { return }
        let small = configuration.parameterSets.compactMap(HEVCSequenceParameters.parse(nal:)).allSatisfy {
            let (pixels, overflow) = $0.width.multipliedReportingOverflow(by: $0.height)
            return !overflow && pixels <= maxPixels
        }
        guard small else { return }
        _ = try? decoder.decode(configuration, data: data) { picture in
            var sum = 0
            for index in picture.planes.indices {
                let (width, height) = picture.size(ofPlane: index)
                let bytes = width * (index == 0 ? (picture.bitDepth + 7) / 8 : (picture.bitDepthChroma + 7) / 8)
                let plane = picture.planes[index]
                for row in 0..<height {
                    for column in 0..<bytes { sum &+= Int(plane.pointer[row * plane.stride + column]) }
                }
            }
            return sum
        }
    }
}
