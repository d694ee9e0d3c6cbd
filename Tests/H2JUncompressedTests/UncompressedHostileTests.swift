import H2JContainer
import H2JSupport
import H2JTestSupport
import H2JUncompressed
import Testing

/// The `uncC`, `cmpd`, `cmpC` and `icef` readers and the decoder never trap: every
/// truncation and random damage of real layouts either decodes or throws a reason.
@Suite("Uncompressed images: hostile input")
struct UncompressedHostileTests {
    /// Layouts covering each reader path: (uncC, cmpd, cmpC, icef, data) of a 4×2 image.
    static let layouts: [([UInt8], [UInt8]?, [UInt8]?, [UInt8]?, [UInt8])] = [
        (UNCI.uncC([(0, 5, 0), (1, 6, 0), (2, 5, 0)], interleave: 3, rowAlign: 3), UNCI.cmpd([4, 5, 6]), nil, nil, Array(0..<48)),
        (UNCI.uncC([(0, 8, 0), (1, 8, 0), (2, 8, 0)], sampling: 2, interleave: 2, tiles: (2, 1)), UNCI.cmpd([1, 2, 3]), nil, nil, Array(0..<24)),
        (UNCI.uncC([(0, 10, 2), (1, 8, 0)], interleave: 4, tileAlign: 5, tiles: (2, 2)), UNCI.cmpd([0, 7]), nil, nil, Array(0..<80)),
        (UNCI.profile("v410"), nil, UNCI.cmpC("defl", unit: 3), UNCI.icef([0..<21, 21..<42]),
         UNCI.stored(Array(0..<16), zlib: false) + UNCI.stored(Array(16..<32), zlib: false)),
        (UNCI.profile("yuv2"), nil, UNCI.cmpC("defl", unit: 0), nil, UNCI.stored(Array(0..<16), zlib: false)),
        (UNCI.uncC([(0, 8, 0), (1, 8, 0), (2, 8, 0), (3, 8, 0)], interleave: 1, blockSize: 4, flags: 0x70, pixelSize: 6),
         UNCI.cmpd([4, 5, 6, 7]), nil, nil, Array(0..<48)),
    ]

    static func attempt(_ uncC: [UInt8], _ cmpd: [UInt8]?, _ cmpC: [UInt8]?, _ icef: [UInt8]?, _ data: [UInt8]) {
        guard let format = try? UncompressedFormat(uncC: uncC, cmpd: cmpd) else { return }
        let compression = cmpC.flatMap { try? GenericCompression(cmpC: $0, icef: icef) }
        guard let image = try? UncompressedImage(format: format, compression: compression, width: 4, height: 2) else { return }
        _ = try? image.decode(data, decompress: UNCI.decompress, nclx: nil, background: .white)
    }

    @Test("every layout decodes as it is")
    func intact() throws {
        for (uncC, cmpd, cmpC, icef, data) in Self.layouts {
            let format = try UncompressedFormat(uncC: uncC, cmpd: cmpd)
            let compression = try cmpC.map { try GenericCompression(cmpC: $0, icef: icef) }
            let image = try UncompressedImage(format: format, compression: compression, width: 4, height: 2)
            _ = try image.decode(data, decompress: UNCI.decompress, nclx: nil, background: .white)
        }
    }

    @Test("every truncation of every box and of the data is refused or decoded, never a trap")
    func truncations() {
        for (uncC, cmpd, cmpC, icef, data) in Self.layouts {
            for cut in 0..<uncC.count { Self.attempt(Array(uncC.prefix(cut)), cmpd, cmpC, icef, data) }
            for cut in 0..<(cmpd?.count ?? 0) { Self.attempt(uncC, cmpd.map { Array($0.prefix(cut)) }, cmpC, icef, data) }
            for cut in 0..<(cmpC?.count ?? 0) { Self.attempt(uncC, cmpd, cmpC.map { Array($0.prefix(cut)) }, icef, data) }
            for cut in 0..<(icef?.count ?? 0) { Self.attempt(uncC, cmpd, cmpC, icef.map { Array($0.prefix(cut)) }, data) }
            for cut in 0..<data.count { Self.attempt(uncC, cmpd, cmpC, icef, Array(data.prefix(cut))) }
        }
    }

    @Test("random damage to the boxes and the data never traps")
    func mutations() {
        var random = SeededGenerator("UncompressedHostileTests/mutations")
        for _ in 0..<TestScale.iterations(4000) {
            var (uncC, cmpd, cmpC, icef, data) = Self.layouts.randomElement(using: &random)!
            func damage(_ bytes: inout [UInt8]) {
                guard !bytes.isEmpty else { return }
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[at] = [0, 0xFF, 0x80, 1, UInt8.random(in: 0...255, using: &random)].randomElement(using: &random)!
                }
            }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: damage(&uncC)
            case 1: if var box = cmpd { damage(&box); cmpd = box }
            case 2: if var box = cmpC { damage(&box); cmpC = box }
            case 3: if var box = icef { damage(&box); icef = box }
            default: damage(&data)
            }
            Self.attempt(uncC, cmpd, cmpC, icef, data)
        }
    }

    @Test("a declared size of billions of pixels opens without its rows being walked (the pixel limit refuses it before any decode)")
    func hugeDeclaredSize() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0)], interleave: 1, pixelSize: 1 << 20), cmpd: UNCI.cmpd([0]))
        let image = try UncompressedImage(format: format, compression: nil, width: 1 << 32, height: 1 << 16)
        #expect(image.width == 1 << 32 && image.components == 1)
    }

    @Test("what is not decoded is refused as unsupported, naming it; broken layouts as malformed")
    func refusals() throws {
        func error(_ uncC: [UInt8], _ cmpd: [UInt8]?) -> UncompressedError? {
            do { _ = try UncompressedFormat(uncC: uncC, cmpd: cmpd); return nil } catch { return error }
        }
        var float = UNCI.uncC([(0, 16, 0)], interleave: 0)
        float[15] = 1  // component_format of the first component
        #expect(error(float, UNCI.cmpd([0])) == .unsupported("floating-point samples are not decoded (unsigned integers only)"))
        #expect(error(UNCI.uncC([(0, 8, 0)], interleave: 0), UNCI.cmpd([10])) == .unsupported("palette components are not decoded"))
        #expect(error(UNCI.uncC([(0, 8, 0)], interleave: 0), UNCI.cmpd([11]))?.unsupported == true)
        #expect(error(UNCI.uncC([(0, 17, 0)], interleave: 0), UNCI.cmpd([0]))?.unsupported == true)
        #expect(error(UNCI.profile("v210"), nil)?.unsupported == true)
        #expect(error(UNCI.uncC([(3, 8, 0)], interleave: 0), UNCI.cmpd([0]))?.unsupported == false)
        #expect(error(UNCI.uncC([(0, 8, 0)], interleave: 0), nil) == .malformed("no 'cmpd' box (component definitions)"))
        #expect(throws: UncompressedError.unsupported("generic compression 'lz4 ' (deflate, zlib and Brotli are decoded)")) {
            try GenericCompression(cmpC: UNCI.cmpC("lz4 ", unit: 0), icef: nil)
        }
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0)], interleave: 0, tiles: (3, 1)), cmpd: UNCI.cmpd([0]))
        #expect(throws: UncompressedError.malformed("4×2 pixels do not split into 3×1 equal tiles")) {
            try UncompressedImage(format: format, compression: nil, width: 4, height: 2)
        }
        let short = try UncompressedImage(format: try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0)], interleave: 0), cmpd: UNCI.cmpd([0])),
                                          compression: nil, width: 4, height: 2)
        #expect(throws: UncompressedError.malformed("its data holds 7 bytes where its layout needs 8")) {
            try short.decode(Array(0..<7), decompress: UNCI.decompress, nclx: nil, background: .white)
        }
    }
}
