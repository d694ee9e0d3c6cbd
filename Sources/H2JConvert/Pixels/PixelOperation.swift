/// One step of the pixel stage: it takes the bands of one format and hands bands of
/// the format it makes to the next sink. A step sees each band once, top to bottom, so
/// the whole stage holds a few bands, never the image.
protocol PixelOperation {
    /// The format this step makes from `input`; throws when it cannot take `input`.
    func format(after input: PixelFormat) throws -> PixelFormat
    /// A sink that takes bands of `input` and writes this step's bands into `next`.
    func sink(input: PixelFormat, into next: any PixelSink) -> any PixelSink
    /// Whether this step leaves interleaved rows as they are, so that an image whose own
    /// codestream stands for its pixels (a JPEG item, whose engine writes rows) may still
    /// be copied through it. False unless a step says otherwise.
    var passesRows: Bool { get }
}

extension PixelOperation {
    var passesRows: Bool { false }
}

/// The pixel stage: the steps every image goes through between its source and the
/// encoder, in order. Empty for an ordinary conversion, so the source's bands reach the
/// encoder untouched; a gain map's code mapping is a step (`CodeMapping`).
struct PixelChain {
    let operations: [any PixelOperation]

    /// The format the encoder gets from a source of `input`.
    func format(after input: PixelFormat) throws -> PixelFormat {
        try operations.reduce(input) { try $1.format(after: $0) }
    }

    /// The sink a source of `input` writes into: the first step's, chained to `encoder`.
    func sink(input: PixelFormat, into encoder: any PixelSink) throws -> any PixelSink {
        var formats = [input]
        for operation in operations.dropLast() { formats.append(try operation.format(after: formats[formats.count - 1])) }
        var next = encoder
        for (operation, format) in zip(operations, formats).reversed() { next = operation.sink(input: format, into: next) }
        return next
    }

    /// Whether an image's own codestream may be copied instead of its pixels encoded: no
    /// step changes rows (an empty chain, as for every default conversion).
    var keepsCodestream: Bool { operations.allSatisfy(\.passesRows) }

    /// With `operation` after the others.
    func appending(_ operation: any PixelOperation) -> PixelChain {
        PixelChain(operations: operations + [operation])
    }
}
