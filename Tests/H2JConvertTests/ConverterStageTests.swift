import Foundation
import Glibc
import H2JJob
import H2JTestSupport
import Testing
@testable import H2JContainer
import H2JDe265
import H2JOutputPlan
@testable import H2JConvert
@testable import H2JSupport
import H2JTiles

/// The stages a conversion announces (`onStage`), which a worker passes to its parent:
/// where it was if it dies, and, for an image whose failure the source survives, which
/// image to leave out when the job runs again.
@Suite("Converter: the stages it announces")
struct ConverterStageTests {
    static func sample(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/" + name).path
    }

    /// The stages of one conversion of `path` into a scratch directory, in order.
    static func stages(_ path: String, options: ConversionOptions = ConversionOptions(), omitting: [OmittedImage] = [])
        throws -> (ConversionResult, [(PipelineError.Stage, ConversionResult.Engine?, UInt32?)]) {
        let scratch = TemporaryDirectory()
        let lock = Lock()
        nonisolated(unsafe) var seen: [(PipelineError.Stage, ConversionResult.Engine?, UInt32?)] = []
        let converter = Converter(options: options, decoders: TileDecoderPool.libde265(),
                                  destination: ScratchOutput(),
                                  onStage: { stage, engine, image in lock.withLock { seen.append((stage, engine, image)) } })
        let job = omitting.reduce(ConversionJob(source: .path(path), output: .path(scratch.sub("out.jpg")), action: .convert)) { $0.omitting($1) }
        let result = converter.run(job)
        return (result, lock.withLock { seen })
    }

    /// The primary output's bytes of one conversion of `path` with `options`.
    static func converted(_ path: String, options: ConversionOptions = ConversionOptions()) throws -> Data {
        let scratch = TemporaryDirectory()
        let converter = Converter(options: options, decoders: TileDecoderPool.libde265(), destination: ScratchOutput())
        let result = converter.run(ConversionJob(source: .path(path), output: .path(scratch.sub("out.jpg")), action: .convert))
        try #require(result.status == .converted, "\(result)")
        return try Data(contentsOf: URL(fileURLWithPath: scratch.sub("out.jpg")))
    }

    /// The gain map's item in a sample, as the converter finds it.
    static func gainMapItem(_ path: String) throws -> UInt32 {
        let file = try SourceFile(path: path)
        let structure = try HEIFStructure.read(from: file.byteSource)
        return try #require(GainMapSource.find(structure, source: file.byteSource).0?.item)
    }

    @Test("The gain map's decoding announces its stages, naming its item, between the source's parse and the primary's stages, which name none")
    func gainMapStages() throws {
        let path = Self.sample("gainmap-apple.heic")
        let item = try Self.gainMapItem(path)
        let (result, stages) = try Self.stages(path)
        #expect(result.status == .converted && result.hdr?.hasPrefix("Ultra HDR") == true, "\(result)")
        // The source's parse, then the gain map's stages, then the primary's.
        #expect(stages.first?.0 == .parse && stages.first?.2 == nil, "\(stages)")
        let gainMap = stages.dropFirst().prefix { $0.2 != nil }
        #expect(gainMap.map(\.0) == [.parse, .engine, .limit, .decode, .pixels, .write], "\(stages)")
        #expect(gainMap.allSatisfy { $0.2 == item }, "\(stages)")
        #expect(gainMap.last?.1 == .tiles, "the gain map is an HEVC item the tile engine takes")
        let primary = stages.dropFirst(gainMap.count + 1)
        #expect(primary.contains { $0.0 == .write } && primary.allSatisfy { $0.2 == nil }, "\(stages)")
    }

    @Test("With lanes to spare (one photo) the primary's engine and limit come before its gain map's stages, its decode after them; the JPEG is the same")
    func primaryAhead() throws {
        let path = Self.sample("gainmap-apple.heic")
        let item = try Self.gainMapItem(path)
        var options = ConversionOptions()
        options.decodingThreads = 2
        let (result, stages) = try Self.stages(path, options: options)
        #expect(result.status == .converted && result.hdr?.hasPrefix("Ultra HDR") == true, "\(result)")
        let primary = stages.prefix(3)
        #expect(primary.map(\.0) == [.parse, .engine, .limit] && primary.allSatisfy { $0.2 == nil } && primary.last?.1 == .tiles, "\(stages)")
        let gainMap = stages.dropFirst(3).prefix { $0.2 != nil }
        #expect(gainMap.map(\.0) == [.parse, .engine, .limit, .decode, .pixels, .write] && gainMap.allSatisfy { $0.2 == item }, "\(stages)")
        #expect(stages.dropFirst(3 + gainMap.count).map(\.0) == [.parse, .decode, .pixels, .graft, .write], "\(stages)")
        #expect(try Self.converted(path, options: options) == Self.converted(path), "the same bytes as with one lane")
    }

    @Test("A gain map the job omits (its worker died on it) is not decoded: the output is SDR, with the death's reason")
    func omittedGainMap() throws {
        let path = Self.sample("gainmap-apple.heic")
        let item = try Self.gainMapItem(path)
        let (result, stages) = try Self.stages(path, omitting: [OmittedImage(item: item, reason: "decoder crashed: SIGSEGV in libheif, decoding")])
        #expect(result.status == .converted && result.hdr == nil, "\(result)")
        #expect(stages.allSatisfy { $0.2 == nil }, "\(stages)")
        #expect(result.warnings.contains { $0.code == .gainMapNotUsed && $0.message.contains("item \(item)) cannot be decoded: decoder crashed: SIGSEGV") },
                "\(result.warnings)")
    }

    @Test("Another image's stages name it; an omitted one is left out with image-not-converted; the primary's is never omitted")
    func otherImageStages() throws {
        let path = Self.sample("collection-3-images.heic")
        let (all, stages) = try Self.stages(path)
        #expect(all.outputs.map(\.item) == [1, 2, 3], "\(all)")
        #expect(Set(stages.compactMap(\.2)) == [2, 3], "\(stages)")
        #expect(stages.first { $0.2 == 2 }?.0 == .parse)
        #expect(stages.prefix { $0.2 == nil }.contains { $0.0 == .write }, "the primary's stages come first and name no image")

        let crash = OmittedImage(item: 2, reason: "decoder crashed: SIGSEGV in libheif, decoding")
        let (result, omittedStages) = try Self.stages(path, omitting: [crash, OmittedImage(item: 1, reason: "a worker's lie")])
        #expect(Set(omittedStages.compactMap(\.2)) == [3], "\(omittedStages)")
        #expect(result.status == .converted && result.outputs.map(\.item) == [1, 3], "\(result.outputs)")
        let lost = result.warnings.filter { $0.code == .imageNotConverted }.map(\.message)
        #expect(lost == ["image item 2 (for out-2.jpg) is left out: decoder crashed: SIGSEGV in libheif, decoding"], "\(result.warnings)")
        #expect(result.notCarried == ["1 more image (#2)"], "the hand-off keeps the source: \(result.notCarried)")
    }
}
