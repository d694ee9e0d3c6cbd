import H2JAVCodec
import H2JConvert
import H2JDe265
import H2JTiles

/// `--decoder`: which library decodes the tile engine's HEVC tiles. The pictures of
/// intact files are the same either way (HEVC decoding is exactly specified; the tests
/// check every sample and corpus file); libavcodec is faster, libde265 fails damaged
/// tiles that libavcodec decodes to wrong pixels, so `de265` is the default. This is the
/// one place a `TileDecoderPool` is made for a run.
package enum TileDecoderChoice: String, Sendable, CaseIterable {
    /// libavcodec when it loads (the faster), else libde265.
    case auto
    /// libavcodec (FFmpeg), dlopened; a run that asks for it where it does not load stops.
    case avcodec
    /// libde265, linked: the default (`defaultChoice`).
    case de265

    /// What a run uses unless `--decoder` says otherwise. Not `auto` while libavcodec
    /// (FFmpeg 5.1) turns damaged slice data into a picture without an error, which
    /// libde265 reports (`AVCodecTileDecoderTests`, `FailureEndToEndTests`).
    package static let defaultChoice = TileDecoderChoice.de265

    /// libavcodec cannot be loaded, and `--decoder avcodec` asked for it.
    package struct Unavailable: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { "--decoder avcodec: libavcodec is not available (\(reason))" }
    }

    /// The decoder a run uses: `auto` becomes `avcodec` or `de265`. Loads libavcodec for
    /// `auto` and `avcodec` (once per process); throws when `avcodec` cannot load.
    package func resolved() throws(Unavailable) -> TileDecoderChoice {
        switch self {
        case .de265: return .de265
        case .auto: return AVCodecLibrary.isAvailable ? .avcodec : .de265
        case .avcodec:
            if let failure = AVCodecLibrary.load() { throw Unavailable(reason: failure) }
            return .avcodec
        }
    }

    /// An empty pool of this choice's decoders (`auto` resolved first, falling back).
    package var pool: TileDecoderPool {
        switch (try? resolved()) ?? .de265 {
        case .avcodec: .libavcodec()
        default: .libde265()
        }
    }
}

extension ConversionResult.Engine {
    /// The tile decoder this engine ran with, of a run's `decoder`: only the tile engine
    /// has one (the report's `decoder`).
    package func tileDecoder(_ decoder: TileDecoderChoice?) -> TileDecoderChoice? {
        self == .tiles ? decoder : nil
    }

    /// The engine as `-v` and `compare` name it: `tiles/avcodec` for the tile engine.
    package func label(decoder: TileDecoderChoice?) -> String {
        rawValue + (tileDecoder(decoder).map { "/" + $0.rawValue } ?? "")
    }
}
