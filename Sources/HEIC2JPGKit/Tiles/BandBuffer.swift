/// Receives upright planar rows: Y (and Cb, Cr at half size for 4:2:0) in groups of
/// `JPEGWriter.rawRowsPerCall`, the last group possibly short. `JPEGWriter` is the
/// real sink; tests collect the planes instead.
protocol RawPlaneSink {
    /// `rows` luma rows starting at the next unwritten row; every row readable for
    /// `ceil(componentWidth / 8) * 8` samples (edge replicas past the image width).
    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws
}

extension JPEGWriter: RawPlaneSink {}

/// Output rows of the upright image for one band of tiles at a time, plus the few rows
/// a band leaves over when it does not end on a JPEG iMCU boundary.
///
/// Invariants: buffer row 0 is output row `firstRow`, which is always a multiple of
/// `rowsPerCall` (rows before it went to the sink); at most `bandRows + rowsPerCall`
/// rows are ever held, so memory is one band whatever the image height. Strides are
/// padded to whole JPEG blocks and the padding repeats each row's last sample.
///
/// `@unchecked Sendable`: tiles of one band are placed from several threads, each into
/// its own rectangle (see `TilePlacement`); `flush` runs only between bands.
final class BandBuffer: @unchecked Sendable {
    let width: Int
    let height: Int
    /// 1 (gray) or 3 (YCbCr 4:2:0).
    let components: Int
    let rowsPerCall: Int
    let lumaStride: Int
    let chromaStride: Int
    let chromaWidth: Int
    /// Output row held in buffer row 0.
    private(set) var firstRow = 0
    private let capacity: Int
    private let luma: UnsafeMutableBufferPointer<UInt8>
    private let cb: UnsafeMutableBufferPointer<UInt8>
    private let cr: UnsafeMutableBufferPointer<UInt8>

    /// A buffer for bands of at most `bandRows` rows of a `width` × `height` image.
    init(width: Int, height: Int, components: Int, bandRows: Int, rowsPerCall: Int) {
        self.width = width
        self.height = height
        self.components = components
        self.rowsPerCall = rowsPerCall
        chromaWidth = (width + 1) / 2
        lumaStride = (width + 15) / 16 * 16
        chromaStride = components == 3 ? (chromaWidth + 7) / 8 * 8 : 0
        capacity = bandRows + rowsPerCall
        luma = .allocate(capacity: lumaStride * capacity)
        cb = .allocate(capacity: chromaStride * (capacity + 1) / 2)
        cr = .allocate(capacity: chromaStride * (capacity + 1) / 2)
    }

    deinit {
        luma.deallocate()
        cb.deallocate()
        cr.deallocate()
    }

    /// Start of output row `v`'s luma; `v` must lie in the band being filled.
    func lumaRow(_ v: Int) -> UnsafeMutablePointer<UInt8> {
        luma.baseAddress! + (v - firstRow) * lumaStride
    }

    /// Start of the chroma rows holding output row `v` (even `v`: the block's first row).
    func chromaRows(_ v: Int) -> (cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>) {
        let offset = (v - firstRow) / 2 * chromaStride
        return (cb.baseAddress! + offset, cr.baseAddress! + offset)
    }

    /// Hands every complete group of rows before `end` to `sink` (all of them when `end`
    /// is the image height), then moves the rest to the top for the next band.
    func flush(through end: Int, into sink: RawPlaneSink) throws {
        let held = end - firstRow
        for row in 0..<held { padRow(row) }
        let last = end == height
        let rows = last ? held : held / rowsPerCall * rowsPerCall
        if rows > 0 {
            var planes: [UnsafePointer<UInt8>] = [UnsafePointer(luma.baseAddress!)]
            var strides = [lumaStride]
            if components == 3 {
                planes += [UnsafePointer(cb.baseAddress!), UnsafePointer(cr.baseAddress!)]
                strides += [chromaStride, chromaStride]
            }
            try sink.writeRaw(planes: planes, strides: strides, rows: rows)
        }
        // Leftover rows (fewer than a group) go to the top; they never overlap their
        // source, which starts a whole group further down.
        let left = held - rows
        if left > 0 && rows > 0 {
            let base = luma.baseAddress!
            base.update(from: base + rows * lumaStride, count: left * lumaStride)
            if components == 3 {
                let chromaRows = (left + 1) / 2, from = rows / 2 * chromaStride
                cb.baseAddress!.update(from: cb.baseAddress! + from, count: chromaRows * chromaStride)
                cr.baseAddress!.update(from: cr.baseAddress! + from, count: chromaRows * chromaStride)
            }
        }
        firstRow += rows
    }

    /// Repeats the last real sample of buffer row `row` (and its chroma row) into the padding.
    private func padRow(_ row: Int) {
        let y = luma.baseAddress! + row * lumaStride
        if lumaStride > width { (y + width).initialize(repeating: y[width - 1], count: lumaStride - width) }
        guard components == 3, row % 2 == 0, chromaStride > chromaWidth else { return }
        for plane in [cb, cr] {
            let c = plane.baseAddress! + row / 2 * chromaStride
            (c + chromaWidth).initialize(repeating: c[chromaWidth - 1], count: chromaStride - chromaWidth)
        }
    }
}
