/// `--decoder`: which library decodes the tile engine's HEVC tiles. The pictures of
/// intact files are the same either way (HEVC decoding is exactly specified; the tests
/// check every sample and corpus file). Chosen by safety first, then speed: the strict
/// policy fails a tile whose slices end before the picture does (the unwritten-block
/// check) or run past it (libde265's own check). libde265 meets it; libavcodec is faster
/// but has no check for slices that run past the last block, so it decodes some damaged
/// tiles to wrong pixels, and is taken only when asked for. This is the one place a
/// `TileDecoderPool` is made for a run.
package enum TileDecoderChoice: String, Sendable, CaseIterable {
    /// The backend that meets the strict policy with the least CPU: libde265 today.
    case auto
    /// libavcodec (FFmpeg), dlopened, checked less, as its name says: an explicit opt-in
    /// for speed, refused with `--delete-source`/`--move-source`; a run that asks for it
    /// where it does not load stops.
    case avcodec = "avcodec-unchecked"
    /// libde265, linked, with the unwritten-block check: the default (`defaultChoice`).
    case de265

    /// What a run uses unless `--decoder` says otherwise.
    package static let defaultChoice = TileDecoderChoice.auto

    /// Why `auto` takes libde265: the sentence `-v`, `--version -v` and the report give.
    package static let autoReason = "auto takes libde265: the one backend that fails every damaged tile the corpus test knows (libavcodec misses slices that run past the last block)"

    /// The backend this choice names once `auto` is decided (`autoReason`), as reports
    /// name it; whether libavcodec loads is the worker's to find out.
    package var backend: TileDecoderChoice { self == .auto ? .de265 : self }

    /// Whether this choice's decoder fails damaged tiles instead of decoding them wrong, as
    /// a hand-off of originals requires.
    package var meetsStrictPolicy: Bool { self != .avcodec }
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
