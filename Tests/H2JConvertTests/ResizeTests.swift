import H2JJob
import Testing
@testable import H2JConvert

/// The `--max-size` step (`Resize`, `PlaneResizer`, `ResizeTaps`) and the box fit.
@Suite("Pixel stage: the banded Lanczos-3 resize")
struct ResizeTests {
    /// Runs `samples` (`width`×`height`, `channels` interleaved) through a `Resize` to
    /// `size` as rows, `band` rows a call; returns the output samples.
    static func resized(_ samples: [UInt8], _ width: Int, _ height: Int, channels: Int, to size: (Int, Int), band: Int) throws -> [UInt8] {
        let input = PixelFormat(width: width, height: height, layout: .rows(components: channels, subsampling: .s444))
        let collector = PixelStageTests.Collector()
        let sink = Resize(width: size.0, height: size.1).sink(input: input, into: collector)
        try samples.withUnsafeBufferPointer { buffer in
            for y in stride(from: 0, to: height, by: band) {
                try sink.writeRows(buffer.baseAddress! + y * width * channels, stride: width * channels, count: min(band, height - y))
            }
        }
        return collector.rows.flatMap { $0 }
    }

    static func pattern(_ width: Int, _ height: Int, channels: Int) -> [UInt8] {
        (0..<(width * height * channels)).map { i in
            let x = i / channels % width, y = i / channels / width
            return UInt8((x * 37 + y * 11 + (x * y) % 23 + (i % channels) * 60) % 256)
        }
    }

    @Test("The box fit keeps the aspect ratio, rounds the other side, and never enlarges")
    func fitting() throws {
        let box = try #require(OutputBox("2048"))
        #expect(box.fitting(width: 4032, height: 3024)! == (2048, 1536))
        #expect(box.fitting(width: 3024, height: 4032)! == (1536, 2048))
        #expect(box.fitting(width: 2048, height: 1000) == nil)
        #expect(box.fitting(width: 100, height: 100) == nil)
        #expect(try #require(OutputBox("200x100")).fitting(width: 400, height: 400)! == (100, 100))
        #expect(try #require(OutputBox("10")).fitting(width: 10000, height: 3)! == (10, 1))
    }

    @Test("A constant image stays constant, as rows (RGB, gray) and as planes, whatever the factor")
    func constant() throws {
        for (width, height, to) in [(40, 30, (13, 10)), (301, 205, (17, 12)), (64, 64, (64, 31))] {
            for channels in [1, 3] {
                let out = try Self.resized([UInt8](repeating: 77, count: width * height * channels), width, height, channels: channels, to: to, band: 16)
                #expect(out.count == to.0 * to.1 * channels && out.allSatisfy { $0 == 77 }, "\(width)×\(height) → \(to)")
            }
        }
        let planes = try Self.planes(width: 301, height: 205, to: (17, 12)) { _, _, _ in 140 }
        #expect(planes.allSatisfy { $0.allSatisfy { $0 == 140 } })
    }

    @Test("A reduce below 4× matches a direct separable Lanczos-3 computed here")
    func againstDirect() throws {
        let (width, height, to) = (40, 30, (13, 10))
        let source = Self.pattern(width, height, channels: 1)
        let out = try Self.resized(source, width, height, channels: 1, to: to, band: 7)
        func weights(_ outIndex: Int, _ inCount: Int, _ outCount: Int) -> [(Int, Double)] {
            let scale = Double(inCount) / Double(outCount), centre = (Double(outIndex) + 0.5) * scale
            let taps = (0..<inCount).map { ($0, ResizeTaps.lanczos3((Double($0) + 0.5 - centre) / scale)) }.filter { $0.1 != 0 }
            let total = taps.reduce(0) { $0 + $1.1 }
            return taps.map { ($0.0, $0.1 / total) }
        }
        var worst = 0.0
        for y in 0..<to.1 {
            for x in 0..<to.0 {
                var value = 0.0
                for (sy, wy) in weights(y, height, to.1) {
                    for (sx, wx) in weights(x, width, to.0) { value += wy * wx * Double(source[sy * width + sx]) }
                }
                worst = max(worst, abs(min(max(value, 0), 255) - Double(out[y * to.0 + x])))
            }
        }
        #expect(worst <= 1, "largest difference \(worst)")
    }

    @Test("Band boundaries do not matter: any rows per call give the same output")
    func bands() throws {
        let source = Self.pattern(301, 205, channels: 3)
        let whole = try Self.resized(source, 301, 205, channels: 3, to: (37, 25), band: 205)
        for band in [1, 5, 16, 64] {
            #expect(try Self.resized(source, 301, 205, channels: 3, to: (37, 25), band: band) == whole, "band \(band)")
        }
    }

    /// Gray planes in the collector's 16-row groups, padded as `writeRaw` wants.
    static func planes(width: Int, height: Int, to: (Int, Int), gray: Bool = false,
                       _ sample: (Int, Int, Int) -> UInt8) throws -> [[UInt8]] {
        let components = gray ? 1 : 3
        let input = PixelFormat(width: width, height: height, layout: .planes(components: components, subsampling: .s420))
        let collector = PixelStageTests.Collector()
        let sink = Resize(width: to.0, height: to.1).sink(input: input, into: collector)
        let sizes = input.layout.planeSubsampling.map { ((width + $0.x - 1) / $0.x, (height + $0.y - 1) / $0.y, $0.y) }
        for y in stride(from: 0, to: height, by: 16) {
            let rows = min(16, height - y)
            let planes: [[UInt8]] = sizes.enumerated().map { p, size in
                let stride = (size.0 + 15) / 16 * 16
                return (0..<((rows + size.2 - 1) / size.2)).flatMap { r in
                    (0..<stride).map { x in sample(p, min(x, size.0 - 1), y / size.2 + r) }
                }
            }
            let strides = sizes.map { ($0.0 + 15) / 16 * 16 }
            try withPointers(planes, 0, []) { try sink.writeRaw(planes: $0, strides: strides, rows: rows) }
        }
        let outStrides = input.layout.planeSubsampling.map { ((to.0 + $0.x - 1) / $0.x + 15) / 16 * 16 }
        // Each plane's rows without their padding.
        return outStrides.indices.map { p in
            let width = (to.0 + input.layout.planeSubsampling[p].x - 1) / input.layout.planeSubsampling[p].x
            return collector.planes.flatMap { call in
                stride(from: 0, to: call[p].count, by: outStrides[p]).flatMap { call[p][$0..<($0 + width)] }
            }
        }
    }

    static func withPointers(_ planes: [[UInt8]], _ index: Int, _ done: [UnsafePointer<UInt8>], _ body: ([UnsafePointer<UInt8>]) throws -> Void) throws {
        guard index < planes.count else { return try body(done) }
        try planes[index].withUnsafeBufferPointer { try withPointers(planes, index + 1, done + [$0.baseAddress!], body) }
    }

    @Test("Gray planes and gray rows resize alike, and 4:2:0 chroma planes come out at half the new size")
    func planesAndRows() throws {
        let (width, height, to) = (301, 205, (37, 25))
        let source = Self.pattern(width, height, channels: 1)
        let rows = try Self.resized(source, width, height, channels: 1, to: to, band: 16)
        let gray = try Self.planes(width: width, height: height, to: to, gray: true) { _, x, y in source[y * width + x] }
        #expect(gray[0] == rows)
        let colour = try Self.planes(width: width, height: height, to: to) { p, x, y in p == 0 ? source[y * width + x] : 128 }
        #expect(colour[0] == rows)
        #expect(colour[1].count == 19 * 13 && colour[2].allSatisfy { $0 == 128 })
    }
}
