import H2JAVCodec
import H2JContainer
import H2JDe265
import H2JTiles

/// The tile engine's decoders over fuzzed tiles: each `hvc1` item's `hvcC` and data go
/// through libde265 with the strict policy (`HEVCTileDecoder`: its status checks and the
/// unwritten-block check, whose pattern-filled buffers come from the executable's
/// `posix_memalign`) and through libavcodec (`AVCodecTileDecoder`, dlopened; skipped where
/// it does not load), and every sample of a picture that comes out is read, so a plane or
/// stride that does not match the picture shows up as a crash. Neither library itself has
/// coverage instrumentation.
enum FuzzedTileDecoder {
    /// Pictures larger than this (by every SPS in the `hvcC`) are not decoded: a fuzzed
    /// SPS can ask for 8K, which costs time, not coverage.
    static let maxPixels = 1 << 18

    /// One decoder of each library for the whole run, reused as the engine reuses a lane's.
    nonisolated(unsafe) static let decoders: [any TileDecoding] =
        [(try? HEVCTileDecoder()) as (any TileDecoding)?, (try? AVCodecTileDecoder()) as (any TileDecoding)?].compactMap { $0 }

    static func decode(_ configuration: HEVCConfiguration, _ data: [UInt8]) {
        let small = configuration.parameterSets.compactMap(HEVCSequenceParameters.parse(nal:)).allSatisfy {
            let (pixels, overflow) = $0.width.multipliedReportingOverflow(by: $0.height)
            return !overflow && pixels <= maxPixels
        }
        guard small else { return }
        for decoder in decoders { read(decoder, configuration, data) }
    }

    /// Decodes one tile and reads every sample of its picture.
    private static func read(_ decoder: any TileDecoding, _ configuration: HEVCConfiguration, _ data: [UInt8]) {
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
