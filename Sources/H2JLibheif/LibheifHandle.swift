import CHeif

/// A libheif image handle (`heif_image_handle_release` on deinit): the primary image's
/// size after transforms, its metadata blocks and colour profile, and its decoding.
package final class LibheifHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { heif_image_handle_release(pointer) }

    /// Size after `irot`/`imir`/`clap`: what the decoded image will measure.
    package var width: Int { Int(heif_image_handle_get_width(pointer)) }
    package var height: Int { Int(heif_image_handle_get_height(pointer)) }
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(pointer) != 0 }
    /// Wraps `heif_image_handle_get_luma_bits_per_pixel`: the coded bit depth (-1 if unknown).
    package var lumaBitDepth: Int { Int(heif_image_handle_get_luma_bits_per_pixel(pointer)) }
    var isPremultiplied: Bool { heif_image_handle_is_premultiplied_alpha(pointer) != 0 }

    /// Wraps `heif_image_handle_get_auxiliary_image_handle`: the auxiliary image `id` of
    /// this image (alpha, depth, a matte, a gain map), with its own transforms.
    package func auxiliaryHandle(_ id: UInt32) throws(LibheifError) -> LibheifHandle {
        var handle: OpaquePointer?
        if let error = LibheifError(heif_image_handle_get_auxiliary_image_handle(pointer, id, &handle)) { throw error }
        guard let handle else { throw LibheifError(message: "no auxiliary image \(id)") }
        return LibheifHandle(handle)
    }

    /// The `prof`/`rICC` ICC profile bytes, byte for byte; nil for nclx or none.
    /// Read from the handle: a decoded grid image does not carry it.
    package func iccProfile() -> [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(pointer)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(pointer)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(pointer, $0.baseAddress) }
        return LibheifError(error) == nil ? bytes : nil
    }

    /// Payloads of the metadata blocks of `type` ("Exif", "mime"), optionally only those
    /// whose content type is `contentType` (XMP is "mime" + "application/rdf+xml").
    package func metadata(type: String, contentType: String? = nil) -> [[UInt8]] {
        let count = Int(heif_image_handle_get_number_of_metadata_blocks(pointer, type))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let filled = Int(heif_image_handle_get_list_of_metadata_block_IDs(pointer, type, &ids, Int32(count)))
        return ids.prefix(filled).compactMap { id in
            if let contentType {
                guard let raw = heif_image_handle_get_metadata_content_type(pointer, id),
                      String(cString: raw) == contentType else { return nil }
            }
            let size = heif_image_handle_get_metadata_size(pointer, id)
            guard size > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            let error = bytes.withUnsafeMutableBytes { heif_image_handle_get_metadata(pointer, id, $0.baseAddress) }
            return LibheifError(error) == nil ? bytes : nil
        }
    }
}
