import CHeif
import H2JContainer
import H2JDe265
import H2JTiles

/// libheif's HEVC decoder plugin replaced by heic2jpg's: `HEVCTileDecoder`, the tile
/// engine's libde265 decoder with its whole policy (`De265Status`, faulty pictures
/// suppressed, the unwritten-block check), so an image libheif decodes (10-bit, 4:2:2,
/// alpha, depth, a grid libheif composes) fails on the same damage a tile does, instead
/// of coming out of libheif's own libde265 plugin as wrong pixels.
///
/// Registered once per process, before the first context, at a priority above libheif's
/// own plugins (100). libheif pushes the `hvcC` parameter sets and the item's NAL units,
/// each after a 4-byte length, then asks for the picture once.
enum StrictHEVCPlugin {
    /// One decode: the bytes libheif pushed, and the text of the last error, kept alive
    /// until libheif frees the decoder (it copies the message before that).
    final class Decoder {
        var data: [UInt8] = []
        var message: [CChar] = []

        /// A `heif_error` of libheif's plugin-error kind with `text`.
        func failure(_ text: String) -> heif_error {
            message = Array(text.utf8CString)
            return message.withUnsafeBufferPointer {
                heif_error(code: heif_error_Decoder_plugin_error, subcode: heif_suberror_Unspecified, message: $0.baseAddress)
            }
        }
    }

    private static let name: StaticString = "heic2jpg strict libde265"
    private static let id: StaticString = "heic2jpg-libde265"
    private static var ok: heif_error { heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil) }

    nonisolated(unsafe) private static let plugin: UnsafeMutablePointer<heif_decoder_plugin> = {
        let plugin = UnsafeMutablePointer<heif_decoder_plugin>.allocate(capacity: 1)
        plugin.initialize(to: heif_decoder_plugin(
            plugin_api_version: 3,
            get_plugin_name: { UnsafeRawPointer(StrictHEVCPlugin.name.utf8Start).assumingMemoryBound(to: CChar.self) },
            init_plugin: nil,
            deinit_plugin: nil,
            does_support_format: { $0 == heif_compression_HEVC ? 200 : 0 },
            new_decoder: { out in
                out?.pointee = Unmanaged.passRetained(Decoder()).toOpaque()
                return StrictHEVCPlugin.ok
            },
            free_decoder: { decoder in
                if let decoder { Unmanaged<Decoder>.fromOpaque(decoder).release() }
            },
            push_data: { decoder, bytes, count in
                guard let decoder else { return StrictHEVCPlugin.ok }
                let state = Unmanaged<Decoder>.fromOpaque(decoder).takeUnretainedValue()
                if let bytes, count > 0 { state.data += UnsafeRawBufferPointer(start: bytes, count: count) }
                return StrictHEVCPlugin.ok
            },
            decode_image: { decoder, out in
                guard let decoder, let out else { return StrictHEVCPlugin.ok }
                return StrictHEVCPlugin.decode(Unmanaged<Decoder>.fromOpaque(decoder).takeUnretainedValue(), into: out)
            },
            set_strict_decoding: { _, _ in },
            id_name: UnsafeRawPointer(StrictHEVCPlugin.id.utf8Start).assumingMemoryBound(to: CChar.self)))
        return plugin
    }()

    /// Whether the plugin is registered; the first use registers it.
    static let registered: Bool = heif_register_decoder_plugin(plugin).code == heif_error_Ok

    /// Decodes what was pushed into a new `heif_image` (YCbCr or monochrome planes at the
    /// stream's bit depth, as libheif's own plugin gives).
    private static func decode(_ state: Decoder, into out: UnsafeMutablePointer<OpaquePointer?>) -> heif_error {
        do {
            let units = try HEVCConfiguration.nalUnits(in: state.data, lengthSize: 4)
            let isParameterSet = { (range: Range<Int>) in (32...34).contains(Int(state.data[range.lowerBound] >> 1) & 0x3F) }
            let sets = units.filter(isParameterSet).map { Array(state.data[$0]) }
            let rest = units.filter { !isParameterSet($0) }.flatMap { range -> [UInt8] in
                let count = UInt32(range.count)
                return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + state.data[range]
            }
            let configuration = HEVCConfiguration(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, lengthSize: 4, parameterSets: sets)
            // libheif's own plugin hands on the SPS's video signal type as the image's nclx.
            let signal = sets.lazy.compactMap(HEVCSequenceParameters.parse(nal:)).first?.videoSignal ?? .unspecifiedVideoSignal
            let image = try HEVCTileDecoder().decode(configuration, data: rest) { picture in try heifImage(picture, signal: signal) }
            out.pointee = image
            return ok
        } catch {
            return state.failure("\(error)")
        }
    }

    /// A libheif image holding a copy of `picture`'s planes, tagged with `signal`.
    private static func heifImage(_ picture: DecodedPicture, signal: NCLX) throws(TileDecodingError) -> OpaquePointer {
        let chroma: heif_chroma = switch picture.chromaFormat {
        case 0: heif_chroma_monochrome
        case 1: heif_chroma_420
        case 2: heif_chroma_422
        default: heif_chroma_444
        }
        var image: OpaquePointer?
        let created = heif_image_create(Int32(picture.width), Int32(picture.height),
                                        picture.chromaFormat == 0 ? heif_colorspace_monochrome : heif_colorspace_YCbCr, chroma, &image)
        guard created.code == heif_error_Ok, let image else { throw TileDecodingError("libheif could not create a \(picture.width)×\(picture.height) image") }
        if let nclx = heif_nclx_color_profile_alloc() {
            nclx.pointee.color_primaries = heif_color_primaries(UInt32(clamping: signal.primaries))
            nclx.pointee.transfer_characteristics = heif_transfer_characteristics(UInt32(clamping: signal.transfer))
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients(UInt32(clamping: signal.matrix))
            nclx.pointee.full_range_flag = signal.fullRange ? 1 : 0
            _ = heif_image_set_nclx_color_profile(image, nclx)
            heif_nclx_color_profile_free(nclx)
        }
        let channels = [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
        for (index, plane) in picture.planes.enumerated() {
            let size = picture.size(ofPlane: index)
            let depth = index == 0 ? picture.bitDepth : picture.bitDepthChroma
            var stride: Int32 = 0
            guard heif_image_add_plane(image, channels[index], Int32(size.width), Int32(size.height), Int32(depth)).code == heif_error_Ok,
                  let target = heif_image_get_plane(image, channels[index], &stride) else {
                heif_image_release(image)
                throw TileDecodingError("libheif could not add a \(size.width)×\(size.height) plane of \(depth) bits")
            }
            let rowBytes = size.width * ((depth + 7) / 8)
            for row in 0..<size.height {
                (target + row * Int(stride)).update(from: plane.pointer + row * plane.stride, count: rowBytes)
            }
        }
        return image
    }
}
