import Foundation
import H2JTestSupport
import Testing
@testable import H2JAVCodec
@testable import H2JContainer
@testable import H2JDe265
@testable import H2JTiles

/// libavcodec's tile decoder against ffmpeg's reference planes and against libde265,
/// sample for sample. Skipped where libavcodec does not load (`Scripts/setup --test`
/// installs it).
@Suite("HEVC tile decoding with libavcodec, checked against ffmpeg and libde265",
       .enabled(if: AVCodecLibrary.isAvailable, "libavcodec does not load: \(AVCodecLibrary.load() ?? "")"))
struct AVCodecTileDecoderTests {
    typealias Stream = HEVCReference.Stream

    /// The packed planes and the picture's description.
    func decode(_ decoder: any TileDecoding, _ stream: Stream) throws -> (planes: [UInt8], picture: String) {
        try decoder.decode(stream.configuration, data: stream.data) { picture in
            (HEVCReference.packedPlanes(picture), "\(picture.width)x\(picture.height) c\(picture.chromaFormat) \(picture.bitDepth)/\(picture.bitDepthChroma) bit")
        }
    }

    @Test("Every plane equals ffmpeg's and libde265's, for several formats decoded in a row by one decoder")
    func bitExact() throws {
        let directory = TemporaryDirectory()
        let streams = [
            try HEVCReference.stream(width: 96, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory),
            try HEVCReference.stream(width: 90, height: 62, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory),
            try HEVCReference.stream(width: 96, height: 64, pixelFormat: "gray", chroma: 0, depth: 8, in: directory),
            try HEVCReference.stream(width: 70, height: 38, pixelFormat: "yuv444p", chroma: 3, depth: 8, in: directory),
            try HEVCReference.stream(width: 64, height: 48, pixelFormat: "yuv422p10le", chroma: 2, depth: 10, in: directory),
            try HEVCReference.stream(width: 66, height: 40, pixelFormat: "yuv420p10le", chroma: 1, depth: 10, in: directory),
            try HEVCReference.stream(width: 48, height: 32, pixelFormat: "gray10le", chroma: 0, depth: 10, in: directory),
            // Full range: libavcodec calls the 8-bit picture yuvj420p.
            try HEVCReference.stream(width: 96, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8,
                                     x265: "range=full:colorprim=bt709:transfer=smpte2084:colormatrix=bt470bg", in: directory),
            // GBR (matrix 0): libavcodec calls it gbrp; the planes stay in coded order.
            try HEVCReference.stream(width: 64, height: 32, pixelFormat: "yuv444p", chroma: 3, depth: 8,
                                     x265: "colormatrix=gbr", in: directory),
        ]
        let expected = ["96x64 c1 8/8 bit", "90x62 c1 8/8 bit", "96x64 c0 8/8 bit", "70x38 c3 8/8 bit", "64x48 c2 10/10 bit",
                        "66x40 c1 10/10 bit", "48x32 c0 10/10 bit", "96x64 c1 8/8 bit", "64x32 c3 8/8 bit"]
        let avcodec = try AVCodecTileDecoder(), de265 = try HEVCTileDecoder()
        // Twice round, so every stream follows a different one: the flush must leave nothing behind.
        for round in 0..<2 {
            for (stream, description) in zip(streams, expected) {
                let decoded = try decode(avcodec, stream)
                #expect(decoded.picture == description, "\(stream.name), round \(round)")
                #expect(HEVCReference.compare(decoded.planes, stream.reference) == "identical", "\(stream.name), round \(round)")
                let other = try decode(de265, stream)
                #expect(decoded.picture == other.picture && decoded.planes == other.planes, "\(stream.name): libde265 differs")
            }
        }
    }

    @Test("Separate decoders decode concurrently on two threads")
    func concurrent() throws {
        let result = try ConcurrentTileDecoding.mismatches(in: TemporaryDirectory()) { try AVCodecTileDecoder() }
        #expect(result.failures == [])
        #expect(result.count == 0)
    }

    /// libavcodec checks far less of the slice data than libde265: with `explode` it fails
    /// what it detects, but a flipped bit or a truncated slice mostly decodes to a wrong
    /// picture (measured: 1 of 300 and 0 of 100 failed, where libde265 fails over 200 and
    /// 90). So this checks only that nothing else happens: a `TileDecodingError` or a
    /// picture of the stream's size, and a clean decode afterwards.
    @Test("Corrupt and truncated slice data give a TileDecodingError or a picture of the right size; the decoder recovers")
    func corruption() throws {
        let directory = TemporaryDirectory()
        let stream = try HEVCReference.stream(width: 96, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory)
        let decoder = try AVCodecTileDecoder()
        let outcomes = try CorruptTiles.outcomes(of: decoder, stream)
        #expect(outcomes.values.reduce(0, +) == 600, "\(outcomes)")
        #expect(HEVCReference.compare(try decode(decoder, stream).planes, stream.reference) == "identical")
    }

    @Test("Broken framing and incomplete configurations are named before libavcodec sees them")
    func framing() throws {
        let directory = TemporaryDirectory()
        let stream = try HEVCReference.stream(width: 64, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory)
        let decoder = try AVCodecTileDecoder()
        #expect(throws: TileDecodingError("the tile data holds no NAL unit")) {
            try decoder.decode(stream.configuration, data: []) { _ in }
        }
        let noSPS = HEVCConfiguration(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, lengthSize: 4,
                                      parameterSets: stream.configuration.parameterSets.filter { HEVCConfiguration.nalUnitType($0) != 33 })
        #expect(throws: TileDecodingError("the tile's 'hvcC' holds no SPS")) {
            try decoder.decode(noSPS, data: stream.data) { _ in }
        }
        // Parameter sets only: no picture.
        let parameterSets = stream.configuration.parameterSets.flatMap(HEVCReference.lengthPrefixed)
        #expect(throws: TileDecodingError("the tile produced no picture")) {
            try decoder.decode(stream.configuration, data: parameterSets) { _ in }
        }
        #expect(throws: TileDecodingError("tile is not 512×512")) {
            try decoder.decode(stream.configuration, data: stream.data) { _ in throw TileDecodingError("tile is not 512×512") }
        }
        #expect(HEVCReference.compare(try decode(decoder, stream).planes, stream.reference) == "identical")
    }
}
