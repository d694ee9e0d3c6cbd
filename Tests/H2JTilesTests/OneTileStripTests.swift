import Foundation
import H2JContainer
import H2JSupport
import Testing
@testable import H2JTiles

/// A decoder that ignores the coded data and hands out one made-up gray picture, so the
/// engine's handling of a one-tile image is seen without a codec.
private final class PatternDecoder: TileDecoding, Sendable {
    let width: Int, height: Int
    let luma: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        luma = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 % width + 3 * ($0 / width)) }
    }

    func decode<R>(_ configuration: HEVCConfiguration, data: [UInt8], body: (DecodedPicture) throws -> R) throws -> R {
        try luma.withUnsafeBufferPointer { plane in
            try body(DecodedPicture(width: width, height: height, chromaFormat: 0, bitDepth: 8, bitDepthChroma: 8,
                                    planes: [(UnsafePointer(plane.baseAddress!), width)]))
        }
    }
}

@Suite("Tile engine: a one-tile image streams in strips")
struct OneTileStripTests {
    /// One 256×192 gray `hvc1` item, no transforms.
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/monochrome.heic")

    @Test("A single item reaches the sink a strip at a time, never as one band of the whole image")
    func strips() throws {
        let source = MemoryByteSource([UInt8](try Data(contentsOf: Self.sample)))
        let structure = try HEIFStructure.read(from: source)
        guard case .tiles(let image) = try EngineChoice.make(structure, image: structure.primaryImage(), source: source) else {
            Issue.record("the tile engine refuses the sample")
            return
        }
        #expect(image.isOneTile && image.monochrome && image.geometry.height > TileEngine.stripRows)
        let decoder = PatternDecoder(width: image.tileWidth, height: image.tileHeight)
        let engine = TileEngine(image: image, structure: structure, source: source, lanes: 2,
                                decoders: TileDecoderPool { decoder })
        #expect(try engine.start(rowsPerCall: 8, ahead: true) == nil)
        let sink = RecordingSink(width: image.geometry.width, rowsPerCall: 8, components: 1)
        try engine.run(into: sink)
        #expect(sink.calls.allSatisfy { $0 <= TileEngine.stripRows && $0 % 8 == 0 })
        #expect(sink.calls.reduce(0, +) == image.geometry.height)
        let samePixels = sink.luma.joined().elementsEqual(decoder.luma)
        #expect(samePixels, "the rows are the decoded picture's, in order")
    }
}
