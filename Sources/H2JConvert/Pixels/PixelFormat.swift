import H2JJPEG
import H2JJPEGCodec

/// What a band of pixels is, from the source's last decode to the encoder: the size the
/// image is encoded at (the one size its EXIF and XMP dimensions follow) and how its
/// samples are laid out.
struct PixelFormat: Equatable {
    enum Layout: Equatable {
        /// Interleaved 8-bit rows of gray (1) or RGB (3), encoded with `subsampling`.
        case rows(components: Int, subsampling: ChromaSubsampling)
        /// JPEG-ready planes: YCbCr (3) with chroma at `subsampling` (the tile engine's
        /// 4:2:0, or `ChromaUpsampling`'s), or gray (1, whose `subsampling` means nothing),
        /// in row groups of the next sink's `rawRowsPerCall` (the tile engine's bands).
        case planes(components: Int, subsampling: ChromaSubsampling)
    }

    let width: Int
    let height: Int
    let layout: Layout

    var components: Int {
        switch layout {
        case .rows(let components, _), .planes(let components, _): components
        }
    }
}

extension PixelFormat.Layout {
    /// Horizontal and vertical subsampling of each plane of a raw layout: luma full, the
    /// chroma of YCbCr planes as their `subsampling` says.
    var planeSubsampling: [(x: Int, y: Int)] {
        guard case .planes(3, let subsampling) = self else { return [(1, 1)] }
        return [(1, 1), subsampling.lumaFactors, subsampling.lumaFactors]
    }
}
