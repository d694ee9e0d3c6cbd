import H2JSupport

/// A sink that hands each band of interleaved rows to a closure: how a derived image's
/// input is read into memory through its engine's `emit`. Raw planes (the tile engine's)
/// are refused: inputs are decoded by engines that write rows.
struct RowSink: PixelSink {
    let body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void

    init(_ body: @escaping (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) {
        self.body = body
    }

    var rawRowsPerCall: Int { 16 }

    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
        try body(rows, stride, count)
    }

    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        throw RowSinkError()
    }
}

/// Raw planes reached a `RowSink`: an engine that writes planes was asked for rows.
struct RowSinkError: CodedError, CustomStringConvertible {
    var code: ErrorCode { .decodeFailed }
    var description: String { "an engine wrote raw planes where rows were expected" }
}
