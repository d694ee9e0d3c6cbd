/// The `--max-size` step: bands of one size made bands of `width`×`height` in the same
/// layout, each plane reduced by its own `PlaneResizer` (interleaved rows as one plane
/// of their channels; raw planes each at their own subsampled size, so the encoder's raw
/// path stays fast). Never enlarges: `PixelStage` adds it only for a smaller size.
struct Resize: PixelOperation {
    let width: Int
    let height: Int

    func format(after input: PixelFormat) -> PixelFormat {
        PixelFormat(width: width, height: height, layout: input.layout)
    }

    func sink(input: PixelFormat, into next: any PixelSink) -> any PixelSink {
        switch input.layout {
        case .rows(let components, _): ResizedRows(input: input, output: format(after: input), components: components, next: next)
        case .planes: ResizedPlanes(input: input, output: format(after: input), next: next)
        }
    }
}

/// Interleaved rows resized, handed on in bands of 16 rows.
private final class ResizedRows: PixelSink {
    private let resizer: PlaneResizer
    private let next: any PixelSink
    private let rowBytes: Int
    private var band: [UInt8]
    private var rows = 0
    private static let bandRows = 16

    init(input: PixelFormat, output: PixelFormat, components: Int, next: any PixelSink) {
        resizer = PlaneResizer(input, output, channels: components, factor: (1, 1))
        self.next = next
        rowBytes = output.width * components
        band = [UInt8](repeating: 0, count: rowBytes * Self.bandRows)
    }

    var rawRowsPerCall: Int { next.rawRowsPerCall }

    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
        for row in 0..<count {
            try resizer.push(rows + row * stride) { try take($0) }
        }
        if resizer.finished, self.rows > 0 { try flush() }
    }

    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        throw ResizeError(message: "raw planes reached a resize of interleaved rows")
    }

    private func take(_ row: UnsafePointer<UInt8>) throws {
        band.withUnsafeMutableBufferPointer { ($0.baseAddress! + rows * rowBytes).update(from: row, count: rowBytes) }
        rows += 1
        if rows == Self.bandRows { try flush() }
    }

    private func flush() throws {
        try band.withUnsafeBufferPointer { try next.writeRows($0.baseAddress!, stride: rowBytes, count: rows) }
        rows = 0
    }
}
