import H2JTiles

/// Where a source's bands go: the next pixel operation, or the encoder at the end of
/// the chain. A source writes one kind of band throughout, as its `PixelFormat` says:
/// interleaved rows (`writeRows`) or raw planes (`writeRaw`, from `RawPlaneSink`).
protocol PixelSink: RawPlaneSink {
    /// `count` interleaved rows of `stride` bytes each, top to bottom after the previous.
    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws
}
