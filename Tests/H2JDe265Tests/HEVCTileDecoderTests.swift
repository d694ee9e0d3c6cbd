import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JDe265
@testable import H2JTiles

@Suite("HEVC tile decoding with libde265, checked against ffmpeg")
struct HEVCTileDecoderTests {
    typealias Stream = HEVCReference.Stream

    /// Decodes `stream` and returns the packed planes and a description of the picture and
    /// of its SPS's video signal type (our parse: the decoder's is never read).
    func decode(_ decoder: HEVCTileDecoder, _ stream: Stream) throws -> (planes: [UInt8], picture: String) {
        let signal = stream.configuration.parameterSets.lazy.compactMap(HEVCSequenceParameters.parse(nal:)).first?.videoSignal
        let colour = signal.map { "range \($0.fullRange ? "full" : "limited") m\($0.matrix) p\($0.primaries) t\($0.transfer)" } ?? "unreadable VUI"
        return try decoder.decode(stream.configuration, data: stream.data) { picture in
            let description = "\(picture.width)x\(picture.height) c\(picture.chromaFormat) \(picture.bitDepth)/\(picture.bitDepthChroma) bit " + colour
            return (HEVCReference.packedPlanes(picture), description)
        }
    }

    @Test("Every plane is byte-identical to ffmpeg's, for several formats decoded in a row by one decoder")
    func bitExact() throws {
        let directory = TemporaryDirectory()
        let streams = [
            try HEVCReference.stream(width: 96, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory),
            try HEVCReference.stream(width: 90, height: 62, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory),
            try HEVCReference.stream(width: 96, height: 64, pixelFormat: "gray", chroma: 0, depth: 8, in: directory),
            try HEVCReference.stream(width: 70, height: 38, pixelFormat: "yuv444p", chroma: 3, depth: 8, in: directory),
            try HEVCReference.stream(width: 64, height: 48, pixelFormat: "yuv422p10le", chroma: 2, depth: 10, in: directory),
            try HEVCReference.stream(width: 96, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8,
                                     x265: "range=full:colorprim=bt709:transfer=smpte2084:colormatrix=bt470bg", in: directory),
        ]
        let expected = [
            "96x64 c1 8/8 bit range limited m2 p2 t2",
            "90x62 c1 8/8 bit range limited m2 p2 t2",
            "96x64 c0 8/8 bit range full m2 p2 t2",
            "70x38 c3 8/8 bit range limited m2 p2 t2",
            "64x48 c2 10/10 bit range limited m2 p2 t2",
            "96x64 c1 8/8 bit range full m5 p1 t16",
        ]
        let decoder = try HEVCTileDecoder()
        // Twice round, so every stream follows a different one: reset must leave nothing behind.
        for round in 0..<2 {
            for (stream, description) in zip(streams, expected) {
                let decoded = try decode(decoder, stream)
                #expect(decoded.picture == description, "\(stream.name), round \(round)")
                #expect(HEVCReference.compare(decoded.planes, stream.reference) == "identical", "\(stream.name), round \(round)")
            }
        }
    }

    @Test("A VUI without a video signal type reads as limited range, codes 2 (unspecified)")
    func noSignalType() throws {
        let directory = TemporaryDirectory()
        let raw = directory.path + "/in.yuv", path = directory.path + "/plain.hevc"
        _ = try HEVCReference.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1",
                                             "-pix_fmt", "yuv420p", "-f", "rawvideo", "-y", raw])
        // The x265 CLI, unlike ffmpeg, writes no video_signal_type unless asked.
        _ = try HEVCReference.run("x265", ["--log-level", "error", "--input", raw, "--input-res", "64x64", "--fps", "1",
                                           "--frames", "1", "--no-vui-timing-info", "-o", path])
        let stream = try HEVCReference.stream(name: "x265-cli", path: path, chroma: 1, depth: 8)
        let decoded = try decode(try HEVCTileDecoder(), stream)
        #expect(decoded.picture == "64x64 c1 8/8 bit range limited m2 p2 t2")
        #expect(HEVCReference.compare(decoded.planes, stream.reference) == "identical")
    }

    @Test("Separate decoders decode concurrently on two threads")
    func concurrent() throws {
        let result = try ConcurrentTileDecoding.mismatches(in: TemporaryDirectory()) { try HEVCTileDecoder() }
        #expect(result.failures == [])
        #expect(result.count == 0)
    }

    @Test("Corrupt and truncated slice data fail as TileDecodingError, few damaged tiles decode wrong, and the decoder recovers",
          arguments: [(96, 64), (256, 192)])
    func corruption(width: Int, height: Int) throws {
        let directory = TemporaryDirectory()
        let stream = try HEVCReference.stream(width: width, height: height, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory)
        let decoder = try HEVCTileDecoder()
        let outcomes = try CorruptTiles.outcomes(of: decoder, stream)
        // Without the warnings policy and faulty-picture suppression, libde265 conceals
        // nearly all of these and outputs a picture; without the unwritten-block check, a
        // slice that ends early gives a picture whose last blocks are stale memory.
        #expect(outcomes["mutated: error", default: 0] >= 200, "\(outcomes)")
        #expect(outcomes["truncated: error", default: 0] >= 90, "\(outcomes)")
        // What is left decodes to whole pictures: damage that reads as other valid syntax up to
        // the picture's last block, which no check of the decoder's output can see. At 256×192
        // the unwritten-block check catches slices that end early, which libde265 passes.
        let wrong = outcomes.filter { $0.key.hasSuffix(": wrong") }.values.reduce(0, +)
        #expect(wrong <= 3, "\(outcomes)")
        if width > 96 { #expect(outcomes.filter { $0.key.hasSuffix(": unwritten") }.values.reduce(0, +) >= 5, "\(outcomes)") }
        #expect(HEVCReference.compare(try decode(decoder, stream).planes, stream.reference) == "identical")
    }

    @Test("A tile whose last slice is missing fails as unwritten, naming the first block never decoded",
          arguments: ["yuv420p", "yuv422p10le"])
    func missingSlice(pixelFormat: String) throws {
        let directory = TemporaryDirectory()
        let tenBit = pixelFormat.hasSuffix("10le")
        let stream = try HEVCReference.stream(width: 256, height: 192, pixelFormat: pixelFormat, chroma: tenBit ? 2 : 1,
                                              depth: tenBit ? 10 : 8, x265: "slices=3", in: directory)
        let units = try HEVCConfiguration.nalUnits(in: stream.data, lengthSize: 4)
        let slices = units.filter { HEVCConfiguration.nalUnitType(Array(stream.data[$0])) ?? 99 < 32 }
        try #require(slices.count == 3)
        let decoder = try HEVCTileDecoder()
        // libde265 itself outputs the picture without a warning; its last rows are stale memory.
        #expect(throws: TileDecodingError.unwritten(at: (0, 128))) {
            try decoder.decode(stream.configuration, data: Array(stream.data[..<(slices[2].lowerBound - 4)])) { _ in }
        }
        #expect(HEVCReference.compare(try decode(decoder, stream).planes, stream.reference) == "identical")
    }

    @Test("Broken framing and incomplete configurations are named before libde265 sees them")
    func framing() throws {
        let directory = TemporaryDirectory()
        let stream = try HEVCReference.stream(width: 64, height: 64, pixelFormat: "yuv420p", chroma: 1, depth: 8, in: directory)
        let decoder = try HEVCTileDecoder()
        let data = stream.data
        #expect(throws: TileDecodingError("the tile data holds no NAL unit")) {
            try decoder.decode(stream.configuration, data: []) { _ in }
        }
        #expect(throws: TileDecodingError("NAL unit 0 at byte 0 declares 4096 bytes, past the end of the 6-byte tile data")) {
            try decoder.decode(stream.configuration, data: [0, 0, 0x10, 0, 0x26, 0x01]) { _ in }
        }
        let units = try HEVCConfiguration.nalUnits(in: data, lengthSize: 4)
        let last = try #require(units.last)
        #expect(throws: TileDecodingError("NAL unit \(units.count - 1) at byte \(last.lowerBound - 4) declares \(last.count) bytes, past the end of the \(data.count - 1)-byte tile data")) {
            try decoder.decode(stream.configuration, data: Array(data.dropLast())) { _ in }
        }
        #expect(throws: TileDecodingError("the tile data ends inside a 4-byte NAL unit length at byte \(data.count) of \(data.count + 2)")) {
            try decoder.decode(stream.configuration, data: data + [0, 0]) { _ in }
        }
        #expect(throws: TileDecodingError("NAL unit \(units.count) at byte \(data.count) has 1 bytes, fewer than a NAL unit header")) {
            try decoder.decode(stream.configuration, data: data + [0, 0, 0, 1, 0x26]) { _ in }
        }
        // What H.265 forbids inside a NAL unit, as a run of zeros written over it leaves.
        for (payload, problem) in [([0x26, 0x01, 0x80, 0, 0, 0, 0x80], "holds 00 00 00 at byte 3"),
                                   ([0x26, 0x01, 0, 0, 1, 0x80], "holds 00 00 01 at byte 2"),
                                   ([0x26, 0x01, 0x80, 0], "ends with a zero byte")] as [([UInt8], String)] {
            #expect(throws: TileDecodingError("NAL unit \(units.count) at byte \(data.count) \(problem), which no valid stream does (damaged data)")) {
                try decoder.decode(stream.configuration, data: data + HEVCReference.lengthPrefixed(payload)) { _ in }
            }
        }
        // An escaped 00 00 03 is what encoders write: the framing accepts it.
        #expect(HEVCConfiguration.startCodeEmulation([0x26, 0x01, 0, 0, 3, 0, 0x80], 0..<7) == nil)
        let noPPS = HEVCConfiguration(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, lengthSize: 4,
                                      parameterSets: stream.configuration.parameterSets.filter { HEVCConfiguration.nalUnitType($0) != 34 })
        #expect(throws: TileDecodingError("the tile's 'hvcC' holds no PPS")) {
            try decoder.decode(noPPS, data: data) { _ in }
        }
        // hvcC's summary fields are not trusted (some writers claim 4:0:0 for colour tiles):
        // the picture is what the SPS says.
        let claimsMono = HEVCConfiguration(chromaFormat: 0, bitDepthLuma: 8, bitDepthChroma: 8, lengthSize: 4,
                                           parameterSets: stream.configuration.parameterSets)
        #expect(try decoder.decode(claimsMono, data: data) { $0.chromaFormat } == 1)
        // A 2-byte length prefix read as a 4-byte one swallows the data.
        let shortPrefixes = HEVCConfiguration(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, lengthSize: 2,
                                              parameterSets: stream.configuration.parameterSets)
        #expect(throws: TileDecodingError.self) { try decoder.decode(shortPrefixes, data: data) { _ in } }
        // The body's own error goes through, and the decoder still works afterwards.
        #expect(throws: TileDecodingError("tile is not 512×512")) {
            try decoder.decode(stream.configuration, data: data) { _ in throw TileDecodingError("tile is not 512×512") }
        }
        #expect(HEVCReference.compare(try decode(decoder, stream).planes, stream.reference) == "identical")
    }
}
