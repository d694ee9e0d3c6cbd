/// An engine whose decoded pixels can be read upright as 8-bit gray or RGB rows, in
/// bands, without libjpeg: how the inputs of a derived image reach its `Composition`.
protocol UprightBandSource: ConversionEngine {
    /// Decodes the pixels `forEachUprightBand` reads (a JPEG item's even when it would
    /// be copied as a codestream).
    mutating func decodePixels() throws
    /// 1 gray or 3 RGB, once decoded.
    func uprightComponents() throws -> Int
    /// The upright rows, `width` × `uprightComponents()` bytes each, top to bottom.
    func forEachUprightBand(_ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) throws
    /// The upright alpha rows, `width` bytes each, when the engine kept an alpha plane
    /// apart; false (and `body` never called) otherwise.
    func forEachUprightAlphaBand(_ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) throws -> Bool
    /// True when the colour samples are premultiplied by that alpha.
    var alphaPremultiplied: Bool { get }
}

extension UprightBandSource {
    mutating func decodePixels() throws { try decode() }
    func forEachUprightAlphaBand(_ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) throws -> Bool { false }
    var alphaPremultiplied: Bool { false }
}
