import H2JContainer
import H2JSupport
import H2JUncompressed
import Testing

/// Synthetic images in every interleaving, sampling, packing and compression the
/// decoder takes, each decoded and compared sample for sample with what was stored.
@Suite("Uncompressed images decode")
struct UncompressedDecodeTests {
    typealias B = UNCI.B
    static let rgb = UNCI.cmpd([4, 5, 6])
    static let rgbComponents = [(0, 8, 0), (1, 8, 0), (2, 8, 0)]

    /// 3×2 RGB: pixel (x, y) is (10x + y, 100 + x, 200 + y).
    static func expectedRGB(_ width: Int = 3, _ height: Int = 2) -> [[UInt8]] {
        (0..<height).map { (y: Int) -> [UInt8] in
            (0..<width).flatMap { (x: Int) -> [UInt8] in [UInt8(10 * x + y), UInt8(100 + x), UInt8(200 + y)] }
        }
    }

    @Test("component interleaving: three planes one after the other")
    func component() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC(Self.rgbComponents, interleave: 0), cmpd: Self.rgb)
        let planes = (0..<3).flatMap { c in (0..<2).flatMap { y in (0..<3).map { x in Self.expectedRGB()[y][3 * x + c] } } }
        #expect(try UNCI.decode(format, 3, 2, planes) == Self.expectedRGB())
    }

    @Test("pixel interleaving with pixel_size padding and row alignment")
    func pixelPadding() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC(Self.rgbComponents, interleave: 1, pixelSize: 5, rowAlign: 4), cmpd: Self.rgb)
        var data: [UInt8] = []
        for row in Self.expectedRGB() {
            for x in 0..<3 { data += row[(3 * x)..<(3 * x + 3)] + [0xEE, 0xEE] }
            data += [0xEE]  // 15 bytes → 16
        }
        #expect(try UNCI.decode(format, 3, 2, data) == Self.expectedRGB())
    }

    @Test("row interleaving of packed 5-, 6- and 5-bit samples, scaled to 8 bits")
    func rowPacked() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 5, 0), (1, 6, 0), (2, 5, 0)], interleave: 3), cmpd: Self.rgb)
        var bits = UNCI.Bits()
        let values = [[30, 0, 16], [62, 1, 32], [0, 30, 15]]  // R row, G row, B row (plus the row number)
        for y in 0..<2 {
            for (c, row) in values.enumerated() {
                for value in row { bits.put(value + y, [5, 6, 5][c]) }
                bits.align()
            }
        }
        func scaled(_ v: Int, _ bits: Int) -> UInt8 {
            let maximum = (1 << bits) - 1
            return UInt8((v * 255 + maximum / 2) / maximum)
        }
        var expected: [[UInt8]] = []
        for y in 0..<2 {
            var row: [UInt8] = []
            for x in 0..<3 { for c in 0..<3 { row.append(scaled(values[c][x] + y, [5, 6, 5][c])) } }
            expected.append(row)
        }
        #expect(try UNCI.decode(format, 3, 2, bits.bytes) == expected)
    }

    @Test("tile-component interleaving of 2×2 gray tiles with tile alignment")
    func tileComponent() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0)], interleave: 4, tileAlign: 4, tiles: (2, 2)), cmpd: UNCI.cmpd([0]))
        // Tiles of 2×1 in raster order, each 2 bytes padded to 4.
        let data: [UInt8] = [1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0, 7, 8, 0, 0]
        #expect(try UNCI.decode(format, 4, 2, data) == [[1, 2, 3, 4], [5, 6, 7, 8]])
    }

    @Test("pixel-interleaved tiles are placed in raster order")
    func tiles() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC(Self.rgbComponents, interleave: 1, tiles: (3, 2)), cmpd: Self.rgb)
        let expected = Self.expectedRGB()
        var data: [UInt8] = []
        for tile in 0..<6 {
            let x = tile % 3
            data += expected[tile / 3][(3 * x)..<(3 * x + 3)]
        }
        #expect(try UNCI.decode(format, 3, 2, data) == expected)
    }

    @Test("mixed interleaving 4:2:0: a Y plane, then Cb/Cr pairs, to RGB by BT.601 full range")
    func mixed420() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0), (1, 8, 0), (2, 8, 0)], sampling: 2, interleave: 2),
                                            cmpd: UNCI.cmpd([1, 2, 3]))
        // Left 2×2 block neutral gray (Y 50, 90), right block red (Y 76, Cb 85, Cr 255).
        let data: [UInt8] = [50, 50, 76, 76, 90, 90, 76, 76] + [128, 128, 85, 255]
        let rows = try UNCI.decode(format, 4, 2, data)
        #expect(Array(rows[0][0..<6]) == [50, 50, 50, 50, 50, 50] && Array(rows[1][0..<3]) == [90, 90, 90])
        for pixel in [rows[0][6..<9], rows[1][9..<12]] {
            #expect(pixel.elementsEqual([254, 0, 0]) || pixel.elementsEqual([255, 0, 0]), "\(Array(pixel))")
        }
    }

    @Test("the yuv2 profile (multi-Y 4:2:2): Y0 Cb Y1 Cr groups")
    func multiY() throws {
        let format = try UncompressedFormat(uncC: UNCI.profile("yuv2"), cmpd: nil)
        let rows = try UNCI.decode(format, 4, 1, [10, 128, 20, 128, 30, 128, 40, 128])
        #expect(rows == [[10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40]])
    }

    @Test("blocks: v410 (one pixel in a little-endian 32-bit block, reversed, padded low) and y210 (one sample a block)")
    func blocks() throws {
        let v410 = try UncompressedFormat(uncC: UNCI.profile("v410"), cmpd: nil)
        // Cb = Cr = 512 (neutral), Y = 1023: (Cr << 22) | (Y << 12) | (Cb << 2).
        let word = 512 << 22 | 1023 << 12 | 512 << 2
        #expect(try UNCI.decode(v410, 1, 1, (0..<4).map { UInt8((word >> (8 * $0)) & 0xFF) }) == [[255, 255, 255]])
        let y210 = try UncompressedFormat(uncC: UNCI.profile("y210"), cmpd: nil)
        let samples = [0, 512, 1023, 512]  // Y0 Cb Y1 Cr, each 10 bits at the top of a little-endian 16-bit word
        let data = samples.flatMap { [UInt8((($0 << 6) & 0xFF)), UInt8(($0 << 6) >> 8)] }
        #expect(try UNCI.decode(y210, 2, 1, data) == [[0, 0, 0, 255, 255, 255]])
    }

    @Test("little-endian 16-bit samples, and 10-bit samples aligned to 2 bytes")
    func wideSamples() throws {
        let little = try UncompressedFormat(uncC: UNCI.uncC([(0, 16, 0)], interleave: 0, flags: 0x80), cmpd: UNCI.cmpd([0]))
        #expect(try UNCI.decode(little, 2, 1, [0xFF, 0xFF, 0x00, 0x80]) == [[255, 128]])
        let aligned = try UncompressedFormat(uncC: UNCI.uncC([(0, 10, 2)], interleave: 0), cmpd: UNCI.cmpd([0]))
        #expect(try UNCI.decode(aligned, 2, 1, [0xFC, 0x00, 0x03, 0xFF]) == [[0, 255]])
    }

    @Test("alpha is composited over the background, and depth components are read and dropped")
    func alpha() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0), (1, 8, 0), (2, 8, 0), (3, 8, 0), (4, 8, 0)], interleave: 1),
                                            cmpd: UNCI.cmpd([4, 5, 6, 7, 8]))
        let data: [UInt8] = [200, 100, 0, 255, 9, 200, 100, 0, 0, 9, 200, 100, 0, 128, 9]
        let rows = try UNCI.decode(format, 3, 1, data, background: RGBColor(red: 0, green: 0, blue: 255))
        #expect(rows == [[200, 100, 0, 0, 0, 255, 100, 50, 127]])
    }

    @Test("generic compression: the whole item, one unit per row ('icef'), one unit per tile, deflate and zlib")
    func compression() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC(Self.rgbComponents, interleave: 1, tiles: (1, 2)), cmpd: Self.rgb)
        let expected = Self.expectedRGB(), raw = expected.flatMap { $0 }
        let whole = try GenericCompression(cmpC: UNCI.cmpC("zlib", unit: 0), icef: nil)
        #expect(try UNCI.decode(format, 3, 2, UNCI.stored(raw, zlib: true), compression: whole) == expected)
        let rows = expected.map { UNCI.stored($0, zlib: false) }
        let units = [0..<rows[0].count, rows[0].count..<(rows[0].count + rows[1].count)]
        for unit in [3, 2] {
            let compression = try GenericCompression(cmpC: UNCI.cmpC("defl", unit: unit), icef: UNCI.icef(units))
            #expect(try UNCI.decode(format, 3, 2, rows[0] + rows[1], compression: compression) == expected, "unit type \(unit)")
        }
    }

    @Test("YCbCr follows the nclx matrix and range: BT.709 limited range")
    func nclx() throws {
        let format = try UncompressedFormat(uncC: UNCI.uncC([(0, 8, 0), (1, 8, 0), (2, 8, 0)], interleave: 1), cmpd: UNCI.cmpd([1, 2, 3]))
        // BT.709 limited: white is Y 235 (neutral chroma), pure red is (63, 102, 240).
        let rows = try UNCI.decode(format, 2, 1, [235, 128, 128, 63, 102, 240],
                                   nclx: NCLX(primaries: 1, transfer: 13, matrix: 1, fullRange: false))
        #expect(rows[0][0..<3].allSatisfy { $0 >= 254 })
        #expect(rows[0][3] >= 250 && rows[0][4] <= 4 && rows[0][5] <= 4, "\(rows)")
    }
}
