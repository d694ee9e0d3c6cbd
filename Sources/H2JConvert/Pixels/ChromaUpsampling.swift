import H2JJPEG
import H2JJPEGCodec
import H2JSupport

/// `--sampling 422` or `444` on YCbCr 4:2:0 planes (the tile engine's): the chroma
/// upsampled to the output's sampling with libjpeg's "fancy" triangle filter (jdsample.c
/// `h2v2_fancy_upsample`): each new sample is 3/4 of the nearest 4:2:0 sample and 1/4 of
/// the next nearest, vertically for both modes and horizontally too for 4:4:4, with
/// libjpeg's alternating rounding and the image's edge samples repeated. A decoder shows
/// 4:2:0 chroma this way, so the output looks as the source does, at full chroma
/// resolution the encoder no longer halves. Luma passes untouched. Any other format (rows,
/// whose engines subsample to `--sampling` themselves; gray) passes unchanged.
struct ChromaUpsampling: PixelOperation {
    let target: ChromaSubsampling

    func format(after input: PixelFormat) -> PixelFormat {
        guard target != .s420, input.layout == .planes(components: 3, subsampling: .s420) else { return input }
        return PixelFormat(width: input.width, height: input.height, layout: .planes(components: 3, subsampling: target))
    }

    func sink(input: PixelFormat, into next: any PixelSink) -> any PixelSink {
        guard format(after: input) != input else { return next }
        return UpsamplingSink(width: input.width, height: input.height, horizontally: target == .s444, next: next)
    }

    var passesRows: Bool { true }
}

/// The upsampling, one row group behind its input: the last luma row pair of a group needs
/// the first chroma row of the next, so each group is copied and written out when the next
/// one arrives (or at once when it ends the image). Holds one group, never the image.
private final class UpsamplingSink: PixelSink {
    private let width: Int
    private let height: Int
    private let horizontally: Bool
    private let next: any PixelSink
    /// 4:2:0 chroma width, and the output's chroma width (the same, or the image width).
    private let chromaWidth: Int
    private let outputWidth: Int
    /// Bytes per copied luma row and per output chroma row: whole 8-sample blocks.
    private let lumaStride: Int
    private let outputStride: Int
    /// The group held: its luma rows; per chroma plane the row above the group (the
    /// image's first row at the top), its chroma rows, and the row below (set when the
    /// next group arrives, or the group's last row at the bottom).
    private var luma: [UInt8]
    private var chroma: [[UInt8]]
    private var heldRows = 0
    private var rowsSeen = 0
    /// The group's output rows of each chroma plane, and one row of vertical sums, reused.
    private var output: [[UInt8]]
    private var sums: [Int32]

    /// Luma rows per group: pairs share a chroma row, and 16 is a whole number of the
    /// encoder's iMCU rows (8 for 4:2:2 and 4:4:4).
    static let groupRows = 16

    init(width: Int, height: Int, horizontally: Bool, next: any PixelSink) {
        (self.width, self.height, self.horizontally, self.next) = (width, height, horizontally, next)
        chromaWidth = (width + 1) / 2
        outputWidth = horizontally ? width : chromaWidth
        lumaStride = (width + 7) / 8 * 8
        outputStride = (outputWidth + 7) / 8 * 8
        luma = [UInt8](repeating: 0, count: Self.groupRows * lumaStride)
        chroma = Array(repeating: [UInt8](repeating: 0, count: (Self.groupRows / 2 + 2) * chromaWidth), count: 2)
        output = Array(repeating: [UInt8](repeating: 0, count: Self.groupRows * outputStride), count: 2)
        sums = [Int32](repeating: 0, count: chromaWidth)
    }

    var rawRowsPerCall: Int { Self.groupRows }

    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
        throw ChromaUpsamplingError(reason: "interleaved rows reached a step that takes 4:2:0 planes")
    }

    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        guard planes.count == 3, strides.count == 3, rows > 0, rowsSeen + rows <= height,
              rows % Self.groupRows == 0 || rowsSeen + rows == height else {
            throw ChromaUpsamplingError(reason: "\(planes.count) planes of \(rows) rows after row \(rowsSeen) of \(height)")
        }
        for start in stride(from: 0, to: rows, by: Self.groupRows) {
            let group = planes.indices.map { planes[$0] + (($0 == 0 ? start : start / 2) * strides[$0]) }
            try take(group, strides: strides, rows: min(Self.groupRows, rows - start))
        }
    }

    /// Takes one group of at most `groupRows` rows: writes out the group held, now that
    /// the row below it is known, and holds this one (writing it too when it ends the image).
    private func take(_ planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        let chromaRows = (rows + 1) / 2
        let lastHeld = heldChromaRows
        if heldRows > 0 {
            for plane in 0..<2 { setRow(plane, lastHeld + 1, from: planes[plane + 1]) }
            try flush()
        }
        for plane in 0..<2 {
            // The row above: the last chroma row of the group before, or at the top its own first.
            if rowsSeen == 0 { setRow(plane, 0, from: planes[plane + 1]) } else { copyRow(plane, from: lastHeld, to: 0) }
            for row in 0..<chromaRows { setRow(plane, row + 1, from: planes[plane + 1] + row * strides[plane + 1]) }
        }
        luma.withUnsafeMutableBufferPointer { copy in
            for row in 0..<rows { (copy.baseAddress! + row * lumaStride).update(from: planes[0] + row * strides[0], count: lumaStride) }
        }
        heldRows = rows
        rowsSeen += rows
        if rowsSeen == height {
            for plane in 0..<2 { copyRow(plane, from: chromaRows, to: chromaRows + 1) }
            try flush()
        }
    }

    /// Chroma rows of the group held.
    private var heldChromaRows: Int { (heldRows + 1) / 2 }

    /// Copies one 4:2:0 chroma row into row `index` of the held plane.
    private func setRow(_ plane: Int, _ index: Int, from row: UnsafePointer<UInt8>) {
        chroma[plane].withUnsafeMutableBufferPointer { ($0.baseAddress! + index * chromaWidth).update(from: row, count: chromaWidth) }
    }

    private func copyRow(_ plane: Int, from source: Int, to target: Int) {
        chroma[plane].withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            (base + target * chromaWidth).update(from: base + source * chromaWidth, count: chromaWidth)
        }
    }

    /// Writes the held group to the next sink, its chroma upsampled.
    private func flush() throws {
        for plane in 0..<2 {
            for row in 0..<heldRows { upsample(plane, row: row) }
        }
        try luma.withUnsafeBufferPointer { y in
            try output[0].withUnsafeBufferPointer { cb in
                try output[1].withUnsafeBufferPointer { cr in
                    try next.writeRaw(planes: [y.baseAddress!, cb.baseAddress!, cr.baseAddress!],
                                      strides: [lumaStride, outputStride, outputStride], rows: heldRows)
                }
            }
        }
        heldRows = 0
    }

    /// Output chroma row `row` of the group: the vertical sum 3·near + far (near: the
    /// row's own 4:2:0 row; far: the one above for an even row, below for an odd one),
    /// then, for 4:4:4, the same weights across; padded with its last sample.
    private func upsample(_ plane: Int, row: Int) {
        let near = row / 2 + 1, far = row % 2 == 0 ? near - 1 : near + 1
        let count = chromaWidth, width = outputWidth, horizontally = horizontally
        chroma[plane].withUnsafeBufferPointer { input in
            sums.withUnsafeMutableBufferPointer { sums in
                let nearRow = input.baseAddress! + near * count, farRow = input.baseAddress! + far * count
                for x in 0..<count { sums[x] = 3 * Int32(nearRow[x]) + Int32(farRow[x]) }
            }
        }
        let stride = outputStride
        let even = row % 2 == 0
        sums.withUnsafeBufferPointer { sums in
            output[plane].withUnsafeMutableBufferPointer { out in
                let target = out.baseAddress! + row * stride
                if horizontally {
                    for x in 0..<width {
                        let here = sums[x / 2]
                        let there = x % 2 == 0 ? sums[max(x / 2 - 1, 0)] : sums[min(x / 2 + 1, count - 1)]
                        target[x] = UInt8(truncatingIfNeeded: (3 * here + there + (x % 2 == 0 ? 8 : 7)) >> 4)
                    }
                } else {
                    for x in 0..<width { target[x] = UInt8(truncatingIfNeeded: (sums[x] + (even ? 1 : 2)) >> 2) }
                }
                (target + width).update(repeating: target[width - 1], count: stride - width)
            }
        }
    }
}

/// The upsampling step got input its format did not announce: a converter bug.
struct ChromaUpsamplingError: Error, CodedError, CustomStringConvertible {
    let reason: String
    var code: ErrorCode { .encodeFailed }
    var description: String { "chroma upsampling: \(reason)" }
}
