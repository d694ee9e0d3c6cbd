/// A 256-entry table applied to every sample: how an Apple gain map's codes become ISO
/// 21496-1 codes (`GainMapMetadata.appleCodeMapping`). Gain maps are single-channel, so
/// of raw planes only the first (luma) is mapped, unless `everyPlane`.
struct CodeMapping: PixelOperation {
    let table: [UInt8]
    var everyPlane = false

    /// Every sample becomes 255 minus itself: a negative of RGB or gray rows (and, on
    /// YCbCr planes, of the colours within a code). Test-only (`PixelStage`).
    static let inversion = CodeMapping(table: (0...255).map { UInt8(255 - $0) }, everyPlane: true)

    func format(after input: PixelFormat) -> PixelFormat { input }

    func sink(input: PixelFormat, into next: any PixelSink) -> any PixelSink {
        MappedSink(table: table, everyPlane: everyPlane, rowDivisors: input.layout.planeSubsampling.map(\.y), next: next)
    }

    private struct MappedSink: PixelSink {
        let table: [UInt8]
        let everyPlane: Bool
        /// Luma rows per row of each plane (2 for 4:2:0 chroma).
        let rowDivisors: [Int]
        let next: any PixelSink

        var rawRowsPerCall: Int { next.rawRowsPerCall }

        /// Luma rows mapped per call to `next`: whole row groups, about 64 rows, so the
        /// mapped copy stays a few rows whatever the band (a one-tile gain map's band is
        /// the whole image). Every plane's rows must divide evenly, else a band goes whole.
        private var sliceRows: Int {
            let group = max(1, rawRowsPerCall)
            guard rowDivisors.allSatisfy({ $0 > 0 && group % $0 == 0 }) else { return .max }
            return max(1, 64 / group) * group
        }

        func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
            var mapped = [UInt8](repeating: 0, count: stride * min(count, sliceRows))
            var done = 0
            while done < count {
                let slice = min(sliceRows, count - done)
                map(rows + done * stride, count: stride * slice, into: &mapped)
                try mapped.withUnsafeBufferPointer { try next.writeRows($0.baseAddress!, stride: stride, count: slice) }
                done += slice
            }
        }

        func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
            var mapped = planes.indices.map { index in
                index == 0 || everyPlane ? [UInt8](repeating: 0, count: strides[index] * planeRows(index, min(rows, sliceRows))) : nil
            }
            var done = 0
            while done < rows {
                let slice = min(sliceRows, rows - done)
                let offsets = planes.indices.map { planes[$0] + planeRows($0, done) * strides[$0] }
                for index in mapped.indices where mapped[index] != nil {
                    map(offsets[index], count: strides[index] * planeRows(index, slice), into: &mapped[index]!)
                }
                try withPointers(mapped, offsets, at: 0, []) { try next.writeRaw(planes: $0, strides: strides, rows: slice) }
                done += slice
            }
        }

        /// Rows of plane `index` in a group of `rows` luma rows: half for 4:2:0 chroma.
        private func planeRows(_ index: Int, _ rows: Int) -> Int {
            let divisor = index < rowDivisors.count ? rowDivisors[index] : 1
            return (rows + divisor - 1) / divisor
        }

        /// Calls `body` with each plane's pointer: the mapped copy where there is one.
        private func withPointers(_ mapped: [[UInt8]?], _ planes: [UnsafePointer<UInt8>], at index: Int,
                                  _ done: [UnsafePointer<UInt8>], _ body: ([UnsafePointer<UInt8>]) throws -> Void) throws {
            guard index < planes.count else { return try body(done) }
            guard let copy = mapped[index] else { return try withPointers(mapped, planes, at: index + 1, done + [planes[index]], body) }
            try copy.withUnsafeBufferPointer { try withPointers(mapped, planes, at: index + 1, done + [$0.baseAddress!], body) }
        }

        /// The first `count` of `buffer` become `samples` through the table.
        private func map(_ samples: UnsafePointer<UInt8>, count: Int, into buffer: inout [UInt8]) {
            table.withUnsafeBufferPointer { table in
                buffer.withUnsafeMutableBufferPointer { buffer in
                    for index in 0..<count { buffer[index] = table[Int(samples[index])] }
                }
            }
        }
    }
}
