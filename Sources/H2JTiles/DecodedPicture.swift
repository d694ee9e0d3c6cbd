/// One decoded HEVC picture, borrowed from the decoder (`TileDecoding`).
///
/// Valid only inside the `body` closure of `TileDecoding.decode`: the plane pointers
/// refer to the decoder's buffers, which are released and reused for the next tile. Do not
/// let a picture or its pointers escape.
///
/// Sizes are after the SPS conformance window (what the encoder meant to show).
/// Samples of a plane whose bit depth is 8 are bytes; deeper samples are `UInt16`s in
/// native byte order (little-endian on x86-64 and arm64), value in the low bits, as
/// libde265 stores them. `stride` is in bytes either way.
package struct DecodedPicture {
    /// Luma width and height.
    package let width: Int
    package let height: Int
    /// The SPS's `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    package let chromaFormat: Int
    /// Luma bit depth (8…16).
    package let bitDepth: Int
    /// Chroma bit depth; the SPS carries one even for monochrome pictures.
    package let bitDepthChroma: Int
    /// Y, Cb, Cr; only Y for monochrome. Plane `i` spans `size(ofPlane: i)`.
    package let planes: [(pointer: UnsafePointer<UInt8>, stride: Int)]

    /// Width and height of plane `index` (0 luma, 1 and 2 chroma) in samples.
    package func size(ofPlane index: Int) -> (width: Int, height: Int) {
        DecodedPicture.planeSize(index, width: width, height: height, chromaFormat: chromaFormat)
    }

    package init(width: Int, height: Int, chromaFormat: Int, bitDepth: Int, bitDepthChroma: Int,
                 planes: [(pointer: UnsafePointer<UInt8>, stride: Int)]) {
        self.width = width
        self.height = height
        self.chromaFormat = chromaFormat
        self.bitDepth = bitDepth
        self.bitDepthChroma = bitDepthChroma
        self.planes = planes
    }

    /// Subsampled chroma halves the luma size exactly: a conforming SPS's luma size and
    /// conformance window are multiples of the subsampling factor. `init` checks that
    /// libde265's own plane sizes agree, so a nonconforming SPS fails the tile.
    package static func planeSize(_ index: Int, width: Int, height: Int, chromaFormat: Int) -> (width: Int, height: Int) {
        guard index > 0 else { return (width, height) }
        switch chromaFormat {
        case 1: return (width / 2, height / 2)
        case 2: return (width / 2, height)
        default: return (width, height)
        }
    }
}
