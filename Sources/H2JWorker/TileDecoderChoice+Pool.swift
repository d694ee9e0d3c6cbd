import H2JAVCodec
import H2JDe265
import H2JJob
import H2JTiles

/// Where a worker makes a run's decoder choice real: the one place a `TileDecoderPool`
/// is made for a run.
extension TileDecoderChoice {
    /// libavcodec cannot be loaded, and `--decoder avcodec` asked for it.
    package struct Unavailable: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "--decoder \(TileDecoderChoice.avcodec.rawValue): libavcodec is not available (\(reason))" }
    }

    /// The decoder a run uses: `auto` becomes `de265` (`autoReason`). Loads libavcodec for
    /// `avcodec` (once per process); throws when it cannot load.
    package func resolved() throws(Unavailable) -> TileDecoderChoice {
        guard backend == .avcodec else { return backend }
        if let failure = AVCodecLibrary.load() { throw Unavailable(reason: failure) }
        return .avcodec
    }

    /// An empty pool of this choice's decoders (`auto` resolved first, falling back).
    package var pool: TileDecoderPool {
        switch (try? resolved()) ?? .de265 {
        case .avcodec: .libavcodec()
        default: .libde265()
        }
    }
}
