import CHeif
import H2JSupport

/// A fully decoded, upright image from libheif at its own bit depth: interleaved 16-bit
/// RGB, or RGBA when it has alpha, each sample little-endian with its value in the low
/// `bitDepth` bits (libheif's `RRGGBB(AA)_LE`), full range. What HDR tone mapping reads:
/// an 8-bit decode would cut a PQ or HLG image's codes before they are linearised.
///
/// Rows are read in place (the hosts heic2jpg runs on are little-endian). The libheif
/// image owns the pixel memory; it is released with this object.
package final class DeepDecodedImage {
    package let width: Int
    package let height: Int
    /// Bits per sample (10 or 12 in practice).
    package let bitDepth: Int
    /// 3 (RGB) or 4 (RGBA) samples per pixel.
    package let channels: Int
    /// Whether the colour samples are premultiplied by alpha.
    package let premultiplied: Bool
    /// libheif's decoding warnings (non-fatal defects it worked around).
    package let warnings: [Warning]

    private let image: OpaquePointer
    private let plane: UnsafePointer<UInt8>
    private let stride: Int

    /// Decodes `handle` with no reduction to 8 bits, and with `irot`/`imir`/`clap`
    /// applied unless `transformed` is false (libheif 1.15 mirrors only 8-bit images: the
    /// caller then places the pixels itself).
    package init(decoding handle: LibheifHandle, transformed: Bool = true) throws(LibheifError) {
        let chroma = handle.hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE
        let options = DecodingOptions.make(hdrTo8Bit: false, transformed: transformed)
        defer { heif_decoding_options_free(options) }
        var decoded: OpaquePointer?
        if let error = LibheifError(heif_decode_image(handle.pointer, &decoded, heif_colorspace_RGB, chroma, options)) { throw error }
        guard let decoded else { throw LibheifError(message: "decoder returned no image") }
        image = decoded
        width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        bitDepth = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
        channels = handle.hasAlpha ? 4 : 3
        premultiplied = handle.isPremultiplied
        warnings = DecodedImage.decodingWarnings(decoded)
        var planeStride: Int32 = 0
        guard width > 0, height > 0, (9...16).contains(bitDepth),
              let base = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &planeStride),
              Int(planeStride) >= width * channels * 2 else {
            heif_image_release(decoded)
            throw LibheifError(message: "decoder returned no usable high-bit-depth plane (\(width)×\(height), \(bitDepth) bits per sample)")
        }
        plane = base
        stride = Int(planeStride)
    }

    deinit { heif_image_release(image) }

    /// Row `y` (0 ≤ y < height): `width · channels` samples.
    package func row(_ y: Int) -> UnsafePointer<UInt16> {
        UnsafeRawPointer(plane + y * stride).assumingMemoryBound(to: UInt16.self)
    }
}
