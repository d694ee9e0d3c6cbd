/// An engine whose decoded pixels a derived image's `Composition` can take: its upright
/// gray or RGB rows come through `emit` like any engine's (in the format `pixelFormat`
/// gives), and it can decode them even where it would otherwise copy a codestream, and
/// hand out an alpha plane it kept apart.
protocol UprightBandSource: ConversionEngine {
    /// Decodes the pixels `emit` writes (a JPEG item's even when it would be copied as
    /// a codestream).
    mutating func decodePixels() throws
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
