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
    /// The SPS VUI's video signal description, as the decoder exposes it (libde265: see
    /// `HEVCTileDecoder`). When the SPS has
    /// no VUI, or the VUI no video signal type, libde265 reports `fullRange` false and 2
    /// ("unspecified") for the three codes; when it has a video signal type but no colour
    /// description, the three codes are 2. libde265 also replaces codes it does not know
    /// by 2: primaries 0, 3 and ≥ 11 (so 12, Display P3, reads as 2), transfer 0, 3 and
    /// ≥ 18 (so 18, HLG, reads as 2), matrix ≥ 11 (so 12–14 read as 2).
    package let fullRange: Bool
    /// `matrix_coeffs` (H.273): 1 BT.709, 5/6 BT.601, 9 BT.2020 NCL, 2 unspecified, …
    package let matrix: Int
    /// `colour_primaries` (H.273).
    package let primaries: Int
    /// `transfer_characteristics` (H.273).
    package let transfer: Int

    /// Width and height of plane `index` (0 luma, 1 and 2 chroma) in samples.
    package func size(ofPlane index: Int) -> (width: Int, height: Int) {
        DecodedPicture.planeSize(index, width: width, height: height, chromaFormat: chromaFormat)
    }

    package init(width: Int, height: Int, chromaFormat: Int, bitDepth: Int, bitDepthChroma: Int,
                 planes: [(pointer: UnsafePointer<UInt8>, stride: Int)],
                 fullRange: Bool, matrix: Int, primaries: Int, transfer: Int) {
        self.width = width
        self.height = height
        self.chromaFormat = chromaFormat
        self.bitDepth = bitDepth
        self.bitDepthChroma = bitDepthChroma
        self.planes = planes
        self.fullRange = fullRange
        self.matrix = matrix
        self.primaries = primaries
        self.transfer = transfer
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
