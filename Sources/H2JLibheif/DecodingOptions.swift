import CHeif

/// The options every libheif decode here runs with. AV1 goes to libheif's libaom plugin
/// ("aom"), which fails a damaged frame ("Corrupt frame detected") where dav1d, libheif's
/// first choice, conceals it and returns wrong pixels (`Scripts/damage-corpus`). libheif
/// uses the id only for a format that plugin decodes: HEVC still goes to
/// `StrictHEVCPlugin`, and a libheif without libaom falls back to its best AV1 decoder.
enum DecodingOptions {
    private static let av1Decoder: StaticString = "aom"

    /// New options (free with `heif_decoding_options_free`): HDR brought to 8 bits or not,
    /// the item's transformations applied or not.
    static func make(hdrTo8Bit: Bool, transformed: Bool) -> UnsafeMutablePointer<heif_decoding_options>? {
        let options = heif_decoding_options_alloc()
        options?.pointee.convert_hdr_to_8bit = hdrTo8Bit ? 1 : 0
        options?.pointee.ignore_transformations = transformed ? 0 : 1
        options?.pointee.decoder_id = UnsafeRawPointer(av1Decoder.utf8Start).assumingMemoryBound(to: CChar.self)
        return options
    }
}
