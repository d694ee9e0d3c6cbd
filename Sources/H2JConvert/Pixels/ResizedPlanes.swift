import H2JSupport

/// Raw planes resized, each by its own `PlaneResizer`, and handed on in the encoder's
/// row groups (`rawRowsPerCall` luma rows, the chroma rows they hold), every row padded
/// with replicas of its last sample to whole blocks as `writeRaw` requires. Each plane's
/// resized rows wait here until every plane has its part of the next group: a few rows.
final class ResizedPlanes: PixelSink {
    private let resizers: [PlaneResizer]
    private let factors: [(x: Int, y: Int)]
    private let next: any PixelSink
    /// Each plane's waiting rows, `strides[p]` bytes apart, and their count.
    private var waiting: [[UInt8]]
    private var counts: [Int]
    private let strides: [Int]
    /// Output luma rows handed on so far, and in all.
    private var written = 0
    private let height: Int

    init(input: PixelFormat, output: PixelFormat, next: any PixelSink) {
        factors = input.layout.planeSubsampling
        resizers = factors.map { PlaneResizer(input, output, channels: 1, factor: $0) }
        strides = resizers.map { ($0.outputWidth + 15) / 16 * 16 }
        waiting = strides.map { [UInt8](repeating: 0, count: $0 * 8) }
        counts = resizers.map { _ in 0 }
        self.next = next
        height = output.height
    }

    var rawRowsPerCall: Int { next.rawRowsPerCall }

    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
        throw ResizeError(message: "interleaved rows reached a resize of raw planes")
    }

    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        guard planes.count == resizers.count, strides.count == planes.count else {
            throw ResizeError(message: "\(planes.count) planes reached a resize of \(resizers.count)")
        }
        for plane in planes.indices {
            let rowsOfPlane = (rows + factors[plane].y - 1) / factors[plane].y
            for row in 0..<rowsOfPlane {
                resizers[plane].push(planes[plane] + row * strides[plane]) { keep($0, plane: plane) }
            }
        }
        try handOn()
    }

    /// Appends one resized row of `plane`, padded.
    private func keep(_ row: UnsafePointer<UInt8>, plane: Int) {
        let stride = strides[plane], width = resizers[plane].outputWidth
        if waiting[plane].count < (counts[plane] + 1) * stride { waiting[plane] += [UInt8](repeating: 0, count: waiting[plane].count) }
        waiting[plane].withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress! + counts[plane] * stride
            out.update(from: row, count: width)
            (out + width).update(repeating: row[width - 1], count: stride - width)
        }
        counts[plane] += 1
    }

    /// Hands on every whole group every plane holds, and the rest once the image is done.
    private func handOn() throws {
        let group = next.rawRowsPerCall
        guard group > 0 else { throw ResizeError(message: "the encoder takes no raw rows") }
        let done = resizers.allSatisfy(\.finished)
        while written < height {
            let rows = min(group, height - written)
            let needed = factors.map { (rows + $0.y - 1) / $0.y }
            guard rows == group || done, zip(counts, needed).allSatisfy({ $0 >= $1 }) else { return }
            try withPlanes(0, []) { try next.writeRaw(planes: $0, strides: strides, rows: rows) }
            for plane in waiting.indices {
                let stride = strides[plane], used = needed[plane] * stride, left = (counts[plane] - needed[plane]) * stride
                waiting[plane].withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: $0.baseAddress! + used, count: left) }
                counts[plane] -= needed[plane]
            }
            written += rows
        }
    }

    /// Calls `body` with a pointer to each plane's waiting rows.
    private func withPlanes(_ index: Int, _ done: [UnsafePointer<UInt8>], _ body: ([UnsafePointer<UInt8>]) throws -> Void) throws {
        guard index < waiting.count else { return try body(done) }
        try waiting[index].withUnsafeBufferPointer { try withPlanes(index + 1, done + [$0.baseAddress!], body) }
    }
}

/// Bands that a resize step cannot take: a source wrote another layout than it said.
struct ResizeError: CodedError, CustomStringConvertible {
    let message: String
    var code: ErrorCode { .encodeFailed }
    var description: String { "resize: \(message)" }
}
