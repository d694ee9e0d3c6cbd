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

        func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
            let mapped = map(rows, count: stride * count)
            try mapped.withUnsafeBufferPointer { try next.writeRows($0.baseAddress!, stride: stride, count: count) }
        }

        func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
            let mapped = planes.indices.map { index in
                index == 0 || everyPlane ? map(planes[index], count: strides[index] * planeRows(index, rows)) : nil
            }
            try withPointers(mapped, planes, at: 0, []) { try next.writeRaw(planes: $0, strides: strides, rows: rows) }
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

        private func map(_ samples: UnsafePointer<UInt8>, count: Int) -> [UInt8] {
            table.withUnsafeBufferPointer { table in
                [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    for index in 0..<count { buffer[index] = table[Int(samples[index])] }
                    initialized = count
                }
            }
        }
    }
}
