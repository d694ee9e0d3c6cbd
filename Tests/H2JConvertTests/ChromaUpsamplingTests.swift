import H2JJPEG
import H2JJPEGCodec
import H2JJob
import Testing
@testable import H2JConvert

/// `--sampling 422`/`444` on the tile engine's 4:2:0 planes: the triangle filter on known
/// patterns, across row groups, and the formats it leaves alone.
@Suite("Pixel stage: chroma upsampling of 4:2:0 planes")
struct ChromaUpsamplingTests {
    /// Keeps each plane's real samples, row by row, whatever the call sizes.
    final class Planes: PixelSink {
        let widths: [Int]
        var rows: [[[UInt8]]] = [[], [], []]
        var calls: [Int] = []
        init(widths: [Int]) { self.widths = widths }
        var rawRowsPerCall: Int { 8 }
        func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws { Issue.record("rows") }
        func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
            calls.append(rows)
            for plane in 0..<3 {
                // Every row readable up to whole 8-sample blocks, padding repeating the last sample.
                let padded = (widths[plane] + 7) / 8 * 8
                #expect(strides[plane] >= padded)
                for row in 0..<rows {
                    let samples = Array(UnsafeBufferPointer(start: planes[plane] + row * strides[plane], count: padded))
                    #expect(samples[widths[plane]...].allSatisfy { $0 == samples[widths[plane] - 1] })
                    self.rows[plane].append(Array(samples.prefix(widths[plane])))
                }
            }
        }
    }

    /// Feeds a `width`×`height` image whose luma is `luma(x, y)` and whose two chroma
    /// planes are `chroma(x, y)` (4:2:0 coordinates) through the step, `call` rows at a time.
    static func upsample(_ target: ChromaSubsampling, width: Int, height: Int, call: Int = 16,
                         luma: (Int, Int) -> UInt8 = { x, y in UInt8((x + 3 * y) % 256) },
                         chroma: (Int, Int) -> UInt8) throws -> Planes {
        let step = ChromaUpsampling(target: target)
        let input = PixelFormat(width: width, height: height, layout: .planes(components: 3, subsampling: .s420))
        #expect(step.format(after: input) == PixelFormat(width: width, height: height, layout: .planes(components: 3, subsampling: target)))
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let outputWidth = target == .s444 ? width : chromaWidth
        let collector = Planes(widths: [width, outputWidth, outputWidth])
        let sink = step.sink(input: input, into: collector)
        #expect(sink.rawRowsPerCall == 16)
        let lumaStride = (width + 7) / 8 * 8 + 3, chromaStride = (chromaWidth + 7) / 8 * 8 + 3
        let y = (0..<height).flatMap { row in (0..<lumaStride).map { luma(min($0, width - 1), row) } }
        let c = (0..<chromaHeight).flatMap { row in (0..<chromaStride).map { chroma(min($0, chromaWidth - 1), row) } }
        var row = 0
        while row < height {
            let rows = min(call, height - row)
            try y.withUnsafeBufferPointer { y in
                try c.withUnsafeBufferPointer { c in
                    let chromaRow = c.baseAddress! + row / 2 * chromaStride
                    try sink.writeRaw(planes: [y.baseAddress! + row * lumaStride, chromaRow, chromaRow],
                                      strides: [lumaStride, chromaStride, chromaStride], rows: rows)
                }
            }
            row += rows
        }
        #expect(collector.rows[0] == (0..<height).map { row in (0..<width).map { luma($0, row) } }, "luma untouched")
        #expect(collector.rows[1] == collector.rows[2])
        return collector
    }

    @Test("Across: each new sample is 3/4 of the nearest and 1/4 of the next nearest, edges repeated")
    func horizontal() throws {
        let out = try Self.upsample(.s444, width: 4, height: 2) { x, _ in x == 0 ? 0 : 160 }
        #expect(out.rows[1] == [[0, 40, 120, 160], [0, 40, 120, 160]])
    }

    @Test("Down: the same weights between rows, for 4:2:2 (rows only) and 4:4:4")
    func vertical() throws {
        let pattern = { (_: Int, y: Int) -> UInt8 in y == 0 ? 0 : 160 }
        #expect(try Self.upsample(.s422, width: 2, height: 4, chroma: pattern).rows[1] == [[0], [40], [120], [160]])
        #expect(try Self.upsample(.s444, width: 2, height: 4, chroma: pattern).rows[1] == [[0, 0], [40, 40], [120, 120], [160, 160]])
    }

    @Test("Row groups join seamlessly whatever the call sizes: a vertical ramp across 3 groups and an odd last row",
          arguments: [ChromaSubsampling.s422, .s444], [16, 32, 48])
    func acrossGroups(target: ChromaSubsampling, call: Int) throws {
        let height = 41, ramp = { (_: Int, y: Int) -> UInt8 in UInt8(8 * y) }
        let out = try Self.upsample(target, width: 10, height: height, call: call, chroma: ramp)
        #expect(out.calls == [16, 16, 9], "one group behind, in groups of 16")
        let last = (height - 1) / 2
        let expected = (0..<height).map { y -> UInt8 in
            let k = y / 2
            if y % 2 == 0 { return UInt8(k == 0 ? 0 : 8 * k - 2) }
            return UInt8(k == last ? 8 * k : 8 * k + 2)
        }
        #expect(out.rows[1].map { $0[0] } == expected)
        #expect(out.rows[1].allSatisfy { Set($0).count == 1 }, "constant across")
    }

    @Test("A flat colour stays flat, and odd sizes keep every edge sample", arguments: [(1, 1), (3, 5), (17, 33)])
    func flat(width: Int, height: Int) throws {
        for target in [ChromaSubsampling.s422, .s444] {
            let out = try Self.upsample(target, width: width, height: height) { _, _ in 77 }
            #expect(out.rows[1].count == height && out.rows[1].allSatisfy { $0.allSatisfy { $0 == 77 } })
        }
    }

    @Test("Rows, gray planes and 4:2:0 itself pass unchanged, and rows let a JPEG item be copied")
    func passesOtherFormats() {
        for target in [ChromaSubsampling.s420, .s422, .s444] {
            let step = ChromaUpsampling(target: target)
            for layout in [PixelFormat.Layout.rows(components: 3, subsampling: target), .planes(components: 1, subsampling: .s420)] {
                let format = PixelFormat(width: 9, height: 9, layout: layout)
                #expect(step.format(after: format) == format)
            }
            #expect(PixelChain(operations: [step]).keepsCodestream)
        }
        #expect(!PixelChain(operations: [CodeMapping.inversion]).keepsCodestream)
    }

    @Test("The chain: empty by default, the upsampling last with --sampling 422 or 444, for pictures only")
    func chosen() {
        var options = ConversionOptions()
        #expect(PixelStage.chain(for: options, role: .picture, width: 64, height: 64).operations.isEmpty)
        options.sampling = .s444
        options.maxSize = OutputBox(width: 32, height: 32)
        let picture = PixelStage.chain(for: options, role: .picture, width: 64, height: 64).operations
        #expect(picture.count == 2 && picture.first is Resize, "resize first")
        #expect((picture.last as? ChromaUpsampling)?.target == .s444)
        let gainMap = PixelStage.chain(for: options, role: .scaledWith(width: 64, height: 64), width: 16, height: 16).operations
        #expect(gainMap.count == 1 && gainMap.first is Resize, "a gain map keeps its own sampling")
    }
}
