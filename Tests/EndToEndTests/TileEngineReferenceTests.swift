import Foundation
import H2JAVCodec
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport
@testable import H2JTiles

/// Acceptance (a) of the tile engine: its upright YCbCr planes equal an independent
/// decode of the same tiles (ffmpeg, transforms applied step by step), and agree with
/// libheif's full decode to ≥ 50 dB in RGB; with either tile decoder (libde265, and
/// libavcodec where it loads, whose planes must be the same).
@Suite("Tile engine against independent decoders")
struct TileEngineReferenceTests {
    /// Every file under `root` the tile engine accepts.
    static func acceptedFiles(under root: String?) -> [String] {
        guard let root, let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.sorted().map { root + "/" + $0 }.filter { path in
            guard let file = try? SourceFile(path: path), let structure = try? HEIFStructure.read(from: file.byteSource),
                  let primary = try? structure.primaryImage(),
                  (try? structure.checkItemsInFile(size: file.size)) != nil,
                  case .tiles = try? EngineChoice.make(structure, image: primary, source: file.byteSource)
            else { return false }
            return true
        }
    }

    static let samples = acceptedFiles(under: Tool.samples)
    static let corpus = acceptedFiles(under: Tool.corpus)

    func check(_ path: String) throws {
        let engine = try #require(try EnginePlanes.decode(path), "\(path): the engine refused it")
        // The same planes, sample for sample, with libavcodec's decoder where it loads.
        if AVCodecLibrary.isAvailable {
            let avcodec = try #require(try EnginePlanes.decode(path, decoders: .libavcodec()), "\(path): the engine refused it")
            #expect(avcodec.planes == engine.planes, "\(path): libavcodec's planes differ from libde265's")
        }
        let (reference, reencoded) = try TileReference.planes(path, engine.image, engine.structure)
        #expect(engine.planes.width == reference.width && engine.planes.height == reference.height, "\(path)")
        // Bit-exact where the source already is JFIF (the decoder's samples pass
        // through); within ±1 where colour was re-encoded (16.16 fixed point vs doubles).
        if reencoded {
            let difference = engine.planes.maxDifference(reference)
            #expect(difference.y <= 1 && difference.chroma <= 1, "\(path): \(difference)")
        } else {
            #expect(engine.planes == reference, "\(path): \(engine.planes.maxDifference(reference))")
        }
        // libheif 1.15 refuses a pitm naming a tmap: it reads the bytes the converter gives it, the pitm naming the base.
        let scratch = TemporaryDirectory()
        let bytes = MemoryByteSource([UInt8](try #require(FileManager.default.contents(atPath: path))))
        let readable = try HEIFStructure.read(from: bytes).namingBaseAsPrimary(bytes)
        #expect(FileManager.default.createFile(atPath: scratch.sub("libheif.heic"), contents: Data(try readable.read(at: 0, count: readable.size))))
        let libheif = try #require(Reference.heif(scratch.sub("libheif.heic")), "\(path): libheif could not decode it")
        let psnr = engine.planes.rgb.psnr(against: libheif)
        #expect(psnr >= 50, "\(path): \(psnr) dB against libheif")
    }

    /// Started ahead of its sink, with one lane or two (one of them held back until the
    /// run), the engine hands on the very planes a plain run does.
    @Test("Samples: started ahead of the sink, the same planes", arguments: samples)
    func startedAhead(_ path: String) throws {
        let plain = try #require(try EnginePlanes.decode(path)).planes
        for lanes in [1, 2] {
            let started = try #require(try EnginePlanes.decode(path, lanes: lanes, ahead: true)).planes
            #expect(started == plain, "\(path), \(lanes) lanes: \(started.maxDifference(plain))")
        }
    }

    @Test("Samples: the engine takes the HEVC grids and single items")
    func samplesAccepted() {
        #expect(Self.samples.count >= 3, "the samples include HEVC grids and single items: \(Self.samples)")
    }

    /// One case per file, so the files are checked in parallel with each other and with
    /// the rest of the suite rather than one after another.
    @Test("Samples: planes equal ffmpeg's decode of the tiles; ≥ 50 dB against libheif", arguments: samples)
    func sample(_ path: String) throws {
        try check(path)
    }

    @Test("Corpus: the engine takes the iPhone grid (the list is not empty by accident)",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func corpusAccepted() {
        #expect(Self.corpus.contains { $0.hasSuffix("iphone13pro-depth-gainmap.heic") })
    }

    @Test("Corpus: planes equal ffmpeg's decode of the tiles; ≥ 50 dB against libheif",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"), arguments: corpus)
    func corpusFile(_ path: String) throws {
        try check(path)
    }
}
