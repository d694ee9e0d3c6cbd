/// One plane (1 to 3 interleaved channels of 8-bit samples) reduced row by row: an
/// integer box pre-shrink when the factor is at least 4 (leaving a Lanczos reduce of 2×
/// to 4×, as vips' `resize` does), then Lanczos-3 across each box-reduced row and down
/// the columns. It holds one row of box sums and the window of filtered rows the vertical
/// taps need, never the plane. Samples are filtered as they are coded (gamma-encoded).
final class PlaneResizer {
    let channels: Int
    let outputWidth: Int
    let outputHeight: Int
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let shrinkX: Int
    private let shrinkY: Int
    /// Width of a box-reduced row, in samples (not channels).
    private let boxWidth: Int
    private let horizontal: ResizeTaps
    private let vertical: ResizeTaps
    /// Box sums of the rows of the current box row, `boxWidth × channels`.
    private var sums: [UInt32]
    /// 1 / the source columns in each box column.
    private let columnScale: [Float]
    private var rowsInBox = 0
    private var sourceRow = 0
    /// Box-reduced rows filtered so far.
    private var reducedRows = 0
    /// Horizontally filtered rows, a ring of `vertical.stride` rows of `outputWidth × channels`.
    private var ring: [Float]
    private var reduced: [Float]
    private var accumulator: [Float]
    private var output: [UInt8]
    private var nextOutput = 0

    /// `scaleX`/`scaleY`: source samples per output sample (the image's, which a
    /// subsampled plane shares with luma).
    init(channels: Int, source: (width: Int, height: Int), output: (width: Int, height: Int), scaleX: Double, scaleY: Double) {
        self.channels = channels
        (sourceWidth, sourceHeight) = source
        (outputWidth, outputHeight) = output
        // At most 4096 a side, so a box's sum of 8-bit samples fits 32 bits.
        let shrinkX = min(4096, max(1, Int(scaleX / 2))), shrinkY = min(4096, max(1, Int(scaleY / 2)))
        (self.shrinkX, self.shrinkY) = (shrinkX, shrinkY)
        boxWidth = (source.width + shrinkX - 1) / shrinkX
        let boxHeight = (source.height + shrinkY - 1) / shrinkY
        horizontal = ResizeTaps(inputCount: boxWidth, outputCount: output.width, scale: scaleX / Double(shrinkX))
        vertical = ResizeTaps(inputCount: boxHeight, outputCount: output.height, scale: scaleY / Double(shrinkY))
        sums = [UInt32](repeating: 0, count: boxWidth * channels)
        columnScale = (0..<boxWidth).map { 1 / Float(min(source.width, ($0 + 1) * shrinkX) - $0 * shrinkX) }
        ring = [Float](repeating: 0, count: vertical.stride * output.width * channels)
        reduced = [Float](repeating: 0, count: boxWidth * channels)
        accumulator = [Float](repeating: 0, count: output.width * channels)
        self.output = [UInt8](repeating: 0, count: output.width * channels)
    }

    /// Whether every source row has been taken.
    var finished: Bool { sourceRow == sourceHeight }

    /// Takes the next source row (`sourceWidth × channels` samples); `emit` gets each
    /// output row it completes, top to bottom.
    func push(_ row: UnsafePointer<UInt8>, emit: (UnsafePointer<UInt8>) throws -> Void) rethrows {
        guard sourceRow < sourceHeight else { return }
        addToBox(row)
        sourceRow += 1
        rowsInBox += 1
        guard rowsInBox == shrinkY || sourceRow == sourceHeight else { return }
        filterBoxRow()
        while nextOutput < outputHeight, vertical.starts[nextOutput] + vertical.counts[nextOutput] <= reducedRows {
            try emitRow(emit)
        }
    }

    private func addToBox(_ row: UnsafePointer<UInt8>) {
        let (channels, shrink, width) = (self.channels, shrinkX, sourceWidth)
        sums.withUnsafeMutableBufferPointer { sums in
            if shrink == 1 {
                for index in 0..<(width * channels) { sums[index] &+= UInt32(row[index]) }
                return
            }
            for column in 0..<boxWidth {
                let first = column * shrink, end = min(width, first + shrink)
                for c in 0..<channels {
                    var sum: UInt32 = 0
                    var x = first
                    while x < end {
                        sum &+= UInt32(row[x * channels + c])
                        x += 1
                    }
                    sums[column * channels + c] &+= sum
                }
            }
        }
    }

    /// The box row's averages, filtered across into the ring; the sums start again.
    private func filterBoxRow() {
        let rowScale = 1 / Float(rowsInBox)
        let channels = self.channels, outWidth = outputWidth, taps = horizontal
        reduced.withUnsafeMutableBufferPointer { reduced in
            sums.withUnsafeMutableBufferPointer { sums in
                columnScale.withUnsafeBufferPointer { columnScale in
                    for column in 0..<boxWidth {
                        let scale = columnScale[column] * rowScale
                        for c in 0..<channels {
                            reduced[column * channels + c] = Float(sums[column * channels + c]) * scale
                            sums[column * channels + c] = 0
                        }
                    }
                }
            }
            let slot = reducedRows % vertical.stride
            ring.withUnsafeMutableBufferPointer { ring in
                taps.weights.withUnsafeBufferPointer { weights in
                    let out = ring.baseAddress! + slot * outWidth * channels
                    for x in 0..<outWidth {
                        let first = taps.starts[x], count = taps.counts[x]
                        let w = weights.baseAddress! + x * taps.stride
                        for c in 0..<channels {
                            var sum: Float = 0
                            var input = reduced.baseAddress! + first * channels + c
                            for j in 0..<count {
                                sum += w[j] * input.pointee
                                input += channels
                            }
                            out[x * channels + c] = sum
                        }
                    }
                }
            }
        }
        rowsInBox = 0
        reducedRows += 1
    }

    /// Output row `nextOutput`, its window of filtered rows all in the ring.
    private func emitRow(_ emit: (UnsafePointer<UInt8>) throws -> Void) rethrows {
        let y = nextOutput, count = outputWidth * channels, rows = vertical.stride
        let first = vertical.starts[y]
        accumulator.withUnsafeMutableBufferPointer { acc in
            acc.update(repeating: 0)
            ring.withUnsafeBufferPointer { ring in
                for j in 0..<vertical.counts[y] {
                    let weight = vertical.weights[y * vertical.stride + j]
                    let row = ring.baseAddress! + ((first + j) % rows) * count
                    for index in 0..<count { acc[index] += weight * row[index] }
                }
            }
            output.withUnsafeMutableBufferPointer { out in
                for index in 0..<count { out[index] = UInt8(min(max(acc[index], 0), 255) + 0.5) }
            }
        }
        nextOutput += 1
        try output.withUnsafeBufferPointer { try emit($0.baseAddress!) }
    }
}

extension PlaneResizer {
    /// The resizer of the plane subsampled by `factor` of an image reduced from `input` to `output`.
    convenience init(_ input: PixelFormat, _ output: PixelFormat, channels: Int, factor: (x: Int, y: Int)) {
        func size(_ length: Int, _ by: Int) -> Int { (length + by - 1) / by }
        self.init(channels: channels, source: (size(input.width, factor.x), size(input.height, factor.y)),
                  output: (size(output.width, factor.x), size(output.height, factor.y)),
                  scaleX: Double(input.width) / Double(output.width), scaleY: Double(input.height) / Double(output.height))
    }
}
