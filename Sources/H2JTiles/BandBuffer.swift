/// Receives upright planar rows: Y (and Cb, Cr at half size for 4:2:0) in groups of
/// `rawRowsPerCall`, the last group possibly short. `JPEGWriter` is the real sink (its
/// iMCU height, known once started); tests collect the planes instead.
package protocol RawPlaneSink {
    /// Rows per group: 16 for 4:2:0, 8 for gray.
    var rawRowsPerCall: Int { get }

    /// `rows` luma rows starting at the next unwritten row; every row readable for
    /// `ceil(componentWidth / 8) * 8` samples (edge replicas past the image width).
    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws
}

/// Output rows of the upright image for one band of tiles, plus the few rows the band
/// before left over because they did not fill a whole JPEG row group.
///
/// Two buffers alternate: while the tiles of one band are placed into one, the other's
/// rows are encoded. Invariants: buffer row 0 is output row `firstRow`, always a multiple
/// of `rowsPerCall` (every row before it went to the sink); at most `bandRows +
/// rowsPerCall` rows are held, so memory is two bands whatever the image height. Strides
/// are padded to whole JPEG blocks and the padding repeats each row's last sample.
///
/// `@unchecked Sendable`: tiles of one band are placed from several threads, each into
/// its own rectangle (see `TilePlacement`); `begin` and `emit` run only while no tile of
/// this buffer is being placed.
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
    /// Output row one past the band this buffer holds.
    private(set) var end = 0
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
        (lumaStride, chromaStride) = Self.strides(width: width, components: components)
        let capacity = bandRows + rowsPerCall
        luma = .allocate(capacity: lumaStride * capacity)
        cb = .allocate(capacity: chromaStride * (capacity + 1) / 2)
        cr = .allocate(capacity: chromaStride * (capacity + 1) / 2)
    }

    /// The bytes `init` allocates for these arguments.
    static func bytes(width: Int, components: Int, bandRows: Int, rowsPerCall: Int) -> Int {
        let (lumaStride, chromaStride) = strides(width: width, components: components)
        let capacity = bandRows + rowsPerCall
        return lumaStride * capacity + 2 * chromaStride * ((capacity + 1) / 2)
    }

    /// Row strides: luma padded to 16 samples, chroma (4:2:0, none for gray) to 8.
    private static func strides(width: Int, components: Int) -> (luma: Int, chroma: Int) {
        ((width + 15) / 16 * 16, components == 3 ? ((width + 1) / 2 + 7) / 8 * 8 : 0)
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

    /// Output row one past what `emit` hands on: every whole group, or everything when
    /// the band ends the image.
    var emitEnd: Int { end == height ? end : firstRow + (end - firstRow) / rowsPerCall * rowsPerCall }

    /// Prepares for the band that ends at output row `end`. The buffer starts where
    /// `previous` stops emitting; the rows `previous` holds beyond that (its leftover,
    /// fewer than a group) are copied to the top. `previous` must be completely placed.
    func begin(through end: Int, after previous: BandBuffer?) {
        firstRow = previous?.emitEnd ?? 0
        self.end = end
        guard let previous else { return }
        let left = previous.end - firstRow
        guard left > 0 else { return }
        luma.baseAddress!.update(from: previous.lumaRow(firstRow), count: left * lumaStride)
        if components == 3 {
            let rows = previous.chromaRows(firstRow), count = (left + 1) / 2 * chromaStride
            cb.baseAddress!.update(from: rows.cb, count: count)
            cr.baseAddress!.update(from: rows.cr, count: count)
        }
    }

    /// Prepares for output rows `first..<end` alone, nothing carried over: a strip of a
    /// one-tile image, `first` a multiple of `rowsPerCall`.
    func begin(at first: Int, through end: Int) {
        firstRow = first
        self.end = end
    }

    /// Hands rows `firstRow..<emitEnd` to `sink`, padded.
    func emit(into sink: RawPlaneSink) throws {
        let rows = emitEnd - firstRow
        guard rows > 0 else { return }
        for row in 0..<rows { padRow(row) }
        var planes: [UnsafePointer<UInt8>] = [UnsafePointer(luma.baseAddress!)]
        var strides = [lumaStride]
        if components == 3 {
            planes += [UnsafePointer(cb.baseAddress!), UnsafePointer(cr.baseAddress!)]
            strides += [chromaStride, chromaStride]
        }
        try sink.writeRaw(planes: planes, strides: strides, rows: rows)
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
