import Testing
@testable import H2JConvert

/// The pixel stage's chain: formats follow the steps in order, and each step's sink
/// writes into the next one's.
@Suite("Pixel stage: chains of band-wise steps")
struct PixelStageTests {
    /// A sink that keeps what reaches it.
    final class Collector: PixelSink {
        var rows: [[UInt8]] = []
        var planes: [[[UInt8]]] = []
        var rawRowsPerCall: Int { 16 }

        func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
            self.rows.append(Array(UnsafeBufferPointer(start: rows, count: stride * count)))
        }

        func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
            self.planes.append(planes.indices.map { index in
                Array(UnsafeBufferPointer(start: planes[index], count: strides[index] * (index == 0 ? rows : (rows + 1) / 2)))
            })
        }
    }

    /// A step that halves the width: it says so in its format, and keeps every other sample.
    struct HalfWidth: PixelOperation {
        func format(after input: PixelFormat) -> PixelFormat {
            PixelFormat(width: input.width / 2, height: input.height, layout: input.layout)
        }

        func sink(input: PixelFormat, into next: any PixelSink) -> any PixelSink { Halving(next: next) }

        struct Halving: PixelSink {
            let next: any PixelSink
            var rawRowsPerCall: Int { next.rawRowsPerCall }
            func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
                let kept = (0..<(stride * count / 2)).map { rows[2 * $0] }
                try kept.withUnsafeBufferPointer { try next.writeRows($0.baseAddress!, stride: stride / 2, count: count) }
            }
            func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {}
        }
    }

    @Test("An empty chain hands the source's bands to the encoder untouched, in the source's format")
    func emptyChain() throws {
        let chain = PixelChain(operations: [])
        let format = PixelFormat(width: 4, height: 2, layout: .rows(components: 1, subsampling: .s444))
        #expect(try chain.format(after: format) == format)
        let collector = Collector()
        let sink = try chain.sink(input: format, into: collector)
        try [UInt8](0..<8).withUnsafeBufferPointer { try sink.writeRows($0.baseAddress!, stride: 4, count: 2) }
        #expect(collector.rows == [Array(0..<8)])
    }

    @Test("Steps run in order: each format follows the one before, and each sink feeds the next")
    func stepsInOrder() throws {
        let chain = PixelChain(operations: [HalfWidth()]).appending(CodeMapping.inversion)
        let format = PixelFormat(width: 4, height: 1, layout: .rows(components: 1, subsampling: .s444))
        #expect(try chain.format(after: format) == PixelFormat(width: 2, height: 1, layout: format.layout))
        let collector = Collector()
        let sink = try chain.sink(input: format, into: collector)
        try [UInt8]([10, 20, 30, 40]).withUnsafeBufferPointer { try sink.writeRows($0.baseAddress!, stride: 4, count: 1) }
        #expect(collector.rows == [[245, 225]], "halved, then inverted")
    }

    @Test("A code mapping maps every sample of rows, but of raw planes only the first (a gain map's luma); the inversion maps every plane")
    func codeMappingPlanes() throws {
        let increment = CodeMapping(table: (0...255).map { UInt8(min($0 + 1, 255)) })
        let format = PixelFormat(width: 2, height: 2, layout: .planes(components: 3, subsampling: .s420))
        let y: [UInt8] = [1, 2, 3, 4], cb: [UInt8] = [50], cr: [UInt8] = [60]
        for (mapping, expected) in [(increment, [[2, 3, 4, 5], [50], [60]]), (CodeMapping.inversion, [[254, 253, 252, 251], [205], [195]])] {
            let collector = Collector()
            let sink = try PixelChain(operations: [mapping]).sink(input: format, into: collector)
            try y.withUnsafeBufferPointer { yp in
                try cb.withUnsafeBufferPointer { cbp in
                    try cr.withUnsafeBufferPointer { crp in
                        try sink.writeRaw(planes: [yp.baseAddress!, cbp.baseAddress!, crp.baseAddress!], strides: [2, 1, 1], rows: 2)
                    }
                }
            }
            #expect(collector.planes == [expected.map { $0.map(UInt8.init) }])
        }
    }
}
