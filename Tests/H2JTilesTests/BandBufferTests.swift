import Testing
@testable import H2JTiles

/// Collects whatever a `RawPlaneSink` receives, checking the call contract as it goes.
final class RecordingSink: RawPlaneSink {
    let width: Int, rowsPerCall: Int, components: Int
    var rawRowsPerCall: Int { rowsPerCall }
    var luma: [[UInt8]] = []
    var cb: [[UInt8]] = []
    var cr: [[UInt8]] = []
    var calls: [Int] = []
    /// Samples past the image width that must repeat the last one.
    var paddingChecked = 0

    init(width: Int, rowsPerCall: Int, components: Int) {
        self.width = width
        self.rowsPerCall = rowsPerCall
        self.components = components
    }

    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        calls.append(rows)
        let lumaPadded = (width + 7) / 8 * 8, chromaWidth = (width + 1) / 2, chromaPadded = (chromaWidth + 7) / 8 * 8
        for r in 0..<rows {
            let row = Array(UnsafeBufferPointer(start: planes[0] + r * strides[0], count: lumaPadded))
            if row[width...].allSatisfy({ $0 == row[width - 1] }) { paddingChecked += 1 }
            luma.append(Array(row[..<width]))
        }
        guard components == 3 else { return }
        for r in 0..<((rows + 1) / 2) {
            for (plane, index) in [(\RecordingSink.cb, 1), (\RecordingSink.cr, 2)] {
                let row = Array(UnsafeBufferPointer(start: planes[index] + r * strides[index], count: chromaPadded))
                if row[chromaWidth...].allSatisfy({ $0 == row[chromaWidth - 1] }) { paddingChecked += 1 }
                self[keyPath: plane].append(Array(row[..<chromaWidth]))
            }
        }
    }
}

@Suite("Band buffer: bands in, whole JPEG row groups out")
struct BandBufferTests {
    /// Fills bands of `bandRows` rows with recognisable values, alternating two buffers
    /// as the tile engine does, and records the output.
    func run(width: Int, height: Int, bandRows: Int, components: Int) throws -> RecordingSink {
        let rowsPerCall = components == 3 ? 16 : 8
        let buffers = (0..<2).map { _ in
            BandBuffer(width: width, height: height, components: components, bandRows: bandRows, rowsPerCall: rowsPerCall)
        }
        let sink = RecordingSink(width: width, rowsPerCall: rowsPerCall, components: components)
        var previous: BandBuffer?
        var start = 0, index = 0
        while start < height {
            let end = min(height, start + bandRows)
            let buffer = buffers[index % 2]
            buffer.begin(through: end, after: previous)
            for v in start..<end {
                let row = buffer.lumaRow(v)
                for u in 0..<width { row[u] = UInt8(truncatingIfNeeded: v * 7 + u) }
                if components == 3 && v % 2 == 0 {
                    let chroma = buffer.chromaRows(v)
                    for u in 0..<((width + 1) / 2) {
                        chroma.cb[u] = UInt8(truncatingIfNeeded: v / 2 + u)
                        chroma.cr[u] = UInt8(truncatingIfNeeded: 200 - v / 2 - u)
                    }
                }
            }
            try previous?.emit(into: sink)
            previous = buffer
            start = end
            index += 1
        }
        try previous?.emit(into: sink)
        return sink
    }

    @Test("Rows arrive in order, in groups of 16 (colour) or 8 (gray), with only the last group short",
          arguments: [(37, 50, 20, 3), (64, 64, 64, 3), (33, 17, 6, 3), (5, 3, 2, 3), (29, 100, 12, 1), (16, 9, 4, 1)])
    func order(width: Int, height: Int, bandRows: Int, components: Int) throws {
        let sink = try run(width: width, height: height, bandRows: bandRows, components: components)
        #expect(sink.luma.count == height)
        for (v, row) in sink.luma.enumerated() {
            #expect(row == (0..<width).map { UInt8(truncatingIfNeeded: v * 7 + $0) }, "row \(v)")
        }
        #expect(sink.calls.dropLast().allSatisfy { $0 % sink.rowsPerCall == 0 })
        #expect(sink.calls.reduce(0, +) == height)
        if components == 3 {
            #expect(sink.cb.count == (height + 1) / 2)
            for (c, row) in sink.cb.enumerated() {
                #expect(row == (0..<((width + 1) / 2)).map { UInt8(truncatingIfNeeded: c + $0) }, "chroma row \(c)")
            }
        }
        let expectedPadded = height + (components == 3 ? 2 * ((height + 1) / 2) : 0)
        #expect(sink.paddingChecked == expectedPadded, "every row's padding repeats its last sample")
    }
}
