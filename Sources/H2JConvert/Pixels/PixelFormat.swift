import H2JJPEGCodec

/// What a band of pixels is, from the source's last decode to the encoder: the size the
/// image is encoded at (the one size its EXIF and XMP dimensions follow) and how its
/// samples are laid out.
struct PixelFormat: Equatable {
    enum Layout: Equatable {
        /// Interleaved 8-bit rows of gray (1) or RGB (3), encoded with `subsampling`.
        case rows(components: Int, subsampling: ChromaSubsampling)
        /// JPEG-ready planes: YCbCr 4:2:0 (3) or gray (1), in row groups of the encoder's
        /// `rawRowsPerCall` (the tile engine's bands).
        case planes(components: Int)
    }

    let width: Int
    let height: Int
    let layout: Layout

    var components: Int {
        switch layout {
        case .rows(let components, _), .planes(let components): components
        }
    }
}

extension PixelFormat.Layout {
    /// Horizontal and vertical subsampling of each plane of a raw layout: luma full, the
    /// chroma of YCbCr planes 4:2:0.
    var planeSubsampling: [(x: Int, y: Int)] {
        self == .planes(components: 3) ? [(1, 1), (2, 2), (2, 2)] : [(1, 1)]
    }
}
