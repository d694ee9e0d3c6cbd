import CDe265

/// One decoded HEVC picture, borrowed from libde265.
///
/// Valid only inside the `body` closure of `HEVCTileDecoder.decode`: the plane pointers
/// refer to libde265's buffers, which are released and reused for the next tile. Do not
/// let a picture or its pointers escape.
///
/// Sizes are after the SPS conformance window (what the encoder meant to show).
/// Samples of a plane whose bit depth is 8 are bytes; deeper samples are `UInt16`s in
/// native byte order (little-endian on x86-64 and arm64), value in the low bits, as
/// libde265 stores them. `stride` is in bytes either way.
public struct HEVCPicture {
    /// Luma width and height.
    public let width: Int
    public let height: Int
    /// The SPS's `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public let chromaFormat: Int
    /// Luma bit depth (8…16).
    public let bitDepth: Int
    /// Chroma bit depth; the SPS carries one even for monochrome pictures.
    public let bitDepthChroma: Int
    /// Y, Cb, Cr; only Y for monochrome. Plane `i` spans `size(ofPlane: i)`.
    public let planes: [(pointer: UnsafePointer<UInt8>, stride: Int)]
    /// The SPS VUI's video signal description, as libde265 exposes it. When the SPS has
    /// no VUI, or the VUI no video signal type, libde265 reports `fullRange` false and 2
    /// ("unspecified") for the three codes; when it has a video signal type but no colour
    /// description, the three codes are 2. libde265 also replaces codes it does not know
    /// by 2: primaries 0, 3 and ≥ 11 (so 12, Display P3, reads as 2), transfer 0, 3 and
    /// ≥ 18 (so 18, HLG, reads as 2), matrix ≥ 11 (so 12–14 read as 2).
    public let fullRange: Bool
    /// `matrix_coeffs` (H.273): 1 BT.709, 5/6 BT.601, 9 BT.2020 NCL, 2 unspecified, …
    public let matrix: Int
    /// `colour_primaries` (H.273).
    public let primaries: Int
    /// `transfer_characteristics` (H.273).
    public let transfer: Int

    /// Width and height of plane `index` (0 luma, 1 and 2 chroma) in samples.
    public func size(ofPlane index: Int) -> (width: Int, height: Int) {
        HEVCPicture.planeSize(index, width: width, height: height, chromaFormat: chromaFormat)
    }
}

extension HEVCPicture {
    /// Reads a picture's description and planes from libde265; throws when libde265
    /// describes something inconsistent (no plane buffer, plane sizes that do not follow
    /// from the chroma format).
    init(_ image: OpaquePointer) throws(TileDecodingError) {
        chromaFormat = Int(de265_get_chroma_format(image).rawValue)
        width = Int(de265_get_image_width(image, 0))
        height = Int(de265_get_image_height(image, 0))
        bitDepth = Int(de265_get_bits_per_pixel(image, 0))
        bitDepthChroma = Int(de265_get_bits_per_pixel(image, 1))
        fullRange = de265_get_image_full_range_flag(image) != 0
        matrix = Int(de265_get_image_matrix_coefficients(image))
        primaries = Int(de265_get_image_colour_primaries(image))
        transfer = Int(de265_get_image_transfer_characteristics(image))
        guard (0...3).contains(chromaFormat), width > 0, height > 0 else {
            throw TileDecodingError("libde265 returned a \(width)×\(height) picture with chroma format \(chromaFormat)")
        }
        var planes: [(pointer: UnsafePointer<UInt8>, stride: Int)] = []
        for index in 0..<(chromaFormat == 0 ? 1 : 3) {
            var stride: Int32 = 0
            let channel = Int32(index)
            let (planeWidth, planeHeight) = (Int(de265_get_image_width(image, channel)), Int(de265_get_image_height(image, channel)))
            let expected = HEVCPicture.planeSize(index, width: width, height: height, chromaFormat: chromaFormat)
            let sampleBytes = index == 0 ? (bitDepth + 7) / 8 : (bitDepthChroma + 7) / 8
            guard let pointer = de265_get_image_plane(image, channel, &stride),
                  planeWidth == expected.width, planeHeight == expected.height, Int(stride) >= planeWidth * sampleBytes
            else {
                throw TileDecodingError("libde265 returned an unusable plane \(index) (\(planeWidth)×\(planeHeight), stride \(stride)) for a \(width)×\(height) picture")
            }
            planes.append((pointer, Int(stride)))
        }
        self.planes = planes
    }

    /// Subsampled chroma halves the luma size exactly: a conforming SPS's luma size and
    /// conformance window are multiples of the subsampling factor. `init` checks that
    /// libde265's own plane sizes agree, so a nonconforming SPS fails the tile.
    private static func planeSize(_ index: Int, width: Int, height: Int, chromaFormat: Int) -> (width: Int, height: Int) {
        guard index > 0 else { return (width, height) }
        switch chromaFormat {
        case 1: return (width / 2, height / 2)
        case 2: return (width / 2, height)
        default: return (width, height)
        }
    }
}
