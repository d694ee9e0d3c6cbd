import CHeif
import CJPEGCodec
import Foundation
import H2JContainer
import H2JJPEG

/// An 8-bit RGB picture for comparisons.
package struct RGBPicture {
    package let width: Int
    package let height: Int
    package let pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// PSNR over all RGB samples, in dB (99 for identical pictures).
    package func psnr(against other: RGBPicture) -> Double {
        precondition(width == other.width && height == other.height)
        var sum = 0.0
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                for i in 0..<a.count {
                    let d = Double(Int(a[i]) - Int(b[i]))
                    sum += d * d
                }
            }
        }
        let mse = sum / Double(pixels.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The picture turned a quarter turn clockwise (as EXIF orientation 6 shows it).
    package func rotatedClockwise() -> RGBPicture {
        var turned = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                // Source (x, y) lands in column height - 1 - y, row x of a height-wide picture.
                let from = (y * width + x) * 3, to = (x * height + height - 1 - y) * 3
                turned[to] = pixels[from]
                turned[to + 1] = pixels[from + 1]
                turned[to + 2] = pixels[from + 2]
            }
        }
        return RGBPicture(width: height, height: width, pixels: turned)
    }
}

/// Independent decoders for checking outputs: libheif straight through its C API (not
/// through the pipeline's code), and libjpeg through the codec shim.
package enum Reference {
    /// libheif's decode of the primary image, transforms applied, flattened on `background`.
    package static func heif(_ path: String, background: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> RGBPicture? {
        withPrimaryHandle(path) { handle in decode(handle, background: background) } ?? nil
    }

    /// libheif's decode of every top-level image (`heif_context_get_list_of_top_level_image_IDs`:
    /// not hidden, not a thumbnail, not an auxiliary image), by item ID.
    package static func heifImages(_ path: String, background: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> [UInt32: RGBPicture] {
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        guard heif_context_read_from_file(context, path, nil).code == heif_error_Ok else { return [:] }
        var ids = [heif_item_id](repeating: 0, count: Int(heif_context_get_number_of_top_level_images(context)))
        let count = Int(heif_context_get_list_of_top_level_image_IDs(context, &ids, Int32(ids.count)))
        var pictures: [UInt32: RGBPicture] = [:]
        for id in ids.prefix(count) {
            var handle: OpaquePointer?
            guard heif_context_get_image_handle(context, id, &handle).code == heif_error_Ok, let handle else { continue }
            defer { heif_image_handle_release(handle) }
            pictures[id] = decode(handle, background: background)
        }
        return pictures
    }

    /// libheif's decode of auxiliary image `id` of the primary (alpha, depth, gain map),
    /// its luma as gray RGB.
    package static func heifAuxiliary(_ path: String, _ id: UInt32) -> RGBPicture? {
        withPrimaryHandle(path) { primary -> RGBPicture? in
            var handle: OpaquePointer?
            guard heif_image_handle_get_auxiliary_image_handle(primary, id, &handle).code == heif_error_Ok, let handle else { return nil }
            defer { heif_image_handle_release(handle) }
            var image: OpaquePointer?
            guard heif_decode_image(handle, &image, heif_colorspace_monochrome, heif_chroma_monochrome, nil).code == heif_error_Ok,
                  let image else { return nil }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_Y)), height = Int(heif_image_get_height(image, heif_channel_Y))
            var stride: Int32 = 0
            guard heif_image_get_bits_per_pixel_range(image, heif_channel_Y) == 8,
                  let plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride) else { return nil }
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let value = plane[y * Int(stride) + x]
                    for c in 0..<3 { pixels[(y * width + x) * 3 + c] = value }
                }
            }
            return RGBPicture(width: width, height: height, pixels: pixels)
        } ?? nil
    }

    /// Opens `path` with libheif and calls `body` with the primary image handle.
    package static func withPrimaryHandle<T>(_ path: String, _ body: (OpaquePointer) -> T) -> T? {
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        guard heif_context_read_from_file(context, path, nil).code == heif_error_Ok else { return nil }
        var handle: OpaquePointer?
        guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else { return nil }
        defer { heif_image_handle_release(handle) }
        return body(handle)
    }

    /// With `transformed` false, libheif leaves `irot`/`imir`/`clap` to the caller.
    static func decode(_ handle: OpaquePointer, background: (UInt8, UInt8, UInt8), transformed: Bool = true) -> RGBPicture? {
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = 1
        options?.pointee.ignore_transformations = transformed ? 0 : 1
        var image: OpaquePointer?
        guard heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options).code == heif_error_Ok,
              let image else { return nil }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let bg = [Int(background.0), Int(background.1), Int(background.2)]
        for y in 0..<height {
            for x in 0..<width {
                let p = plane + y * Int(stride) + 4 * x
                let a = Int(p[3])
                for c in 0..<3 {
                    pixels[(y * width + x) * 3 + c] = UInt8((Int(p[c]) * a + bg[c] * (255 - a) + 127) / 255)
                }
            }
        }
        return RGBPicture(width: width, height: height, pixels: pixels)
    }

    /// Size after transforms, from the handle.
    package static func heifSize(_ path: String) -> (Int, Int)? {
        withPrimaryHandle(path) { (Int(heif_image_handle_get_width($0)), Int(heif_image_handle_get_height($0))) }
    }

    /// The primary image's raw ICC profile, if any.
    package static func heifICC(_ path: String) -> [UInt8]? {
        withPrimaryHandle(path) { handle -> [UInt8]? in
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            guard size > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            _ = bytes.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            return bytes
        } ?? nil
    }

    /// Whether the primary image has an XMP block.
    package static func heifHasXMP(_ path: String) -> Bool {
        withPrimaryHandle(path) { handle in
            var ids = [heif_item_id](repeating: 0, count: 8)
            let n = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, "mime", &ids, 8))
            return ids.prefix(n).contains { id in
                heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } == "application/rdf+xml"
            }
        } ?? false
    }

    /// Decodes a JPEG to RGB (grayscale replicated). `warnings` counts libjpeg's corrupt-data warnings.
    package static func jpeg(_ path: String) -> (picture: RGBPicture, components: Int, warnings: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return jpeg(bytes: [UInt8](data))
    }

    /// Decodes JPEG bytes (one image of a Multi-Picture file, say), as `jpeg(_:)`.
    package static func jpeg(bytes: [UInt8]) -> (picture: RGBPicture, components: Int, warnings: Int)? {
        var info = cjpegcodec_decode_info()
        var pixels: UnsafeMutablePointer<UInt8>?
        let code = bytes.withUnsafeBufferPointer { cjpegcodec_decode($0.baseAddress, $0.count, &pixels, &info) }
        guard code == Int32(CJPEGCODEC_OK) || code == Int32(CJPEGCODEC_WARNING), let pixels else { return nil }
        defer { cjpegcodec_free(pixels) }
        let width = Int(info.width), height = Int(info.height), components = Int(info.components)
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            for c in 0..<3 { rgb[3 * i + c] = pixels[components * i + (components == 3 ? c : 0)] }
        }
        return (RGBPicture(width: width, height: height, pixels: rgb), components, Int(info.warnings))
    }
}

extension Reference {
    /// PSNR of `picture` after a plain libjpeg round trip at q90 4:2:0: the best any
    /// converter writing such a JPEG can reach on this content.
    package static func jpegCeiling(_ picture: RGBPicture, components: Int) -> Double {
        let path = NSTemporaryDirectory() + "heic2jpg-ceiling-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0, let encoder = cjpegcodec_encoder_create(fd) else { return 99 }
        defer { cjpegcodec_encoder_destroy(encoder) }
        var source = picture.pixels
        if components == 1 { source = stride(from: 0, to: source.count, by: 3).map { source[$0] } }
        _ = cjpegcodec_encoder_start(encoder, UInt32(picture.width), UInt32(picture.height), Int32(components), 90, CJPEGCODEC_SUBSAMPLING_420,
                                    cjpegcodec_coding(progressive: 0, optimize: 1))
        _ = source.withUnsafeBufferPointer {
            cjpegcodec_encoder_write_rows(encoder, $0.baseAddress, picture.width * components, UInt32(picture.height))
        }
        _ = cjpegcodec_encoder_finish(encoder)
        close(fd)
        guard let roundTrip = jpeg(path) else { return 99 }
        return roundTrip.picture.psnr(against: picture)
    }
}

/// JPEG header segments, parsed independently of the pipeline's own code.
package struct JPEGSegments {
    /// (marker, payload) for every segment before SOS.
    package let segments: [(UInt8, [UInt8])]

    package init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let b = [UInt8](data)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var list: [(UInt8, [UInt8])] = []
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF, b[i + 1] != 0xDA {
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            list.append((b[i + 1], Array(b[(i + 4)..<(i + 2 + length)])))
            i += 2 + length
        }
        segments = list
    }

    /// The image data of the JPEG at `path`: from its first segment that is neither APPn
    /// nor COM through the first EOI after SOS (in entropy-coded data a 0xFF is always
    /// followed by 0x00 or a restart marker, so that is the end of the picture; anything
    /// after it, a vendor trailer, is not picture).
    package static func imageData(path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let b = [UInt8](data)
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF, (0xE0...0xEF).contains(b[i + 1]) || b[i + 1] == 0xFE {
            i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3]))
        }
        guard i < b.count, let sos = b[i...].indices.first(where: { $0 + 1 < b.count && b[$0] == 0xFF && b[$0 + 1] == 0xDA }),
              let eoi = b[sos...].indices.first(where: { $0 + 1 < b.count && b[$0] == 0xFF && b[$0 + 1] == 0xD9 }) else { return nil }
        return Array(b[i...(eoi + 1)])
    }

    package func payloads(_ marker: UInt8, prefix: String) -> [[UInt8]] {
        let p = Array(prefix.utf8)
        return segments.filter { $0.0 == marker && $0.1.starts(with: p) }.map(\.1)
    }

    package var exifSegments: Int { payloads(0xE1, prefix: "Exif\0\0").count }
    package var hasXMP: Bool { !payloads(0xE1, prefix: "http://ns.adobe.com/xap/1.0/\0").isEmpty }

    /// The ICC profile reassembled from APP2 chunks in sequence order.
    package var icc: [UInt8]? {
        let chunks = payloads(0xE2, prefix: "ICC_PROFILE\0").sorted { $0[12] < $1[12] }
        return chunks.isEmpty ? nil : chunks.flatMap { $0.dropFirst(14) }
    }
}
