import CAVCodecShim
import H2JContainer
import H2JTiles

/// Decodes HEVC image items (grid tiles) with libavcodec's HEVC decoder, one tile at a
/// time, reusing one decoder context; the same contract as libde265's `HEVCTileDecoder`,
/// and the same pictures, sample for sample.
///
/// Create one per lane and keep it: an instance is not thread-safe, but separate
/// instances decode concurrently. The context runs one thread (the engine parallelises
/// across tiles), with `err_detect=explode`, so a decoding error fails the tile instead
/// of being concealed.
///
/// Per tile: the `hvcC` parameter sets and the item's NAL units, rewritten with start
/// codes (Annex B, which libavcodec reads without `extradata`, a field whose offset
/// differs between versions), go in as one packet; the decoder is drained and the first
/// picture is the tile's; then the picture is released and the context flushed, whatever
/// happened. libavcodec keeps parameter sets across flushes, so each configuration must
/// hold a VPS, an SPS and a PPS (`tileUnits(in:)`).
package final class AVCodecTileDecoder: TileDecoding {
    private let decoder: OpaquePointer

    /// Throws when libavcodec is not loaded (`AVCodecLibrary.load`) or refuses a context.
    package init() throws(TileDecodingError) {
        if let failure = AVCodecLibrary.load() { throw TileDecodingError("libavcodec is not available: \(failure)") }
        var error = [CChar](repeating: 0, count: 256)
        guard let decoder = h2j_avc_decoder_new(&error, error.count) else {
            throw TileDecodingError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.decoder = decoder
    }

    deinit { h2j_avc_decoder_free(decoder) }

    /// Decodes one tile and calls `body` with its picture, valid only during the call.
    /// Throws `TileDecodingError` when the data is not a sequence of whole length-prefixed
    /// NAL units, when the configuration lacks a VPS, SPS or PPS, when libavcodec reports
    /// an error, when no picture comes out or it comes out in a format libde265 would not
    /// give; and whatever `body` throws.
    package func decode<R>(_ configuration: HEVCConfiguration, data: [UInt8],
                          body: (DecodedPicture) throws -> R) throws -> R {
        defer { h2j_avc_decoder_end(decoder) }
        let units = try configuration.tileUnits(in: data)
        let startCode: [UInt8] = [0, 0, 0, 1]
        var annexB: [UInt8] = []
        annexB.reserveCapacity(data.count + configuration.parameterSets.reduce(0) { $0 + $1.count + 4 })
        for nal in configuration.parameterSets {
            annexB += startCode
            annexB += nal
        }
        for unit in units {
            annexB += startCode
            annexB += data[unit]
        }
        var picture = h2j_avc_picture()
        let status = annexB.withUnsafeBufferPointer { h2j_avc_decode(decoder, $0.baseAddress, $0.count, &picture) }
        switch status {
        case 0: return try body(try DecodedPicture(picture))
        case Int32(H2J_AVC_NO_PICTURE): throw TileDecodingError("the tile produced no picture")
        case Int32(H2J_AVC_UNKNOWN_FORMAT):
            throw TileDecodingError("libavcodec returned a picture in pixel format \(picture.chroma_format), not a planar YUV or GBR format")
        default: throw TileDecodingError(libavcodec: status)
        }
    }
}

extension TileDecodingError {
    /// A libavcodec failure: "HEVC decoding failed: <libavutil's text for the code>".
    init(libavcodec status: Int32) {
        var text = [CChar](repeating: 0, count: 128)
        h2j_avc_error_text(status, &text, text.count)
        self.init("HEVC decoding failed: " + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}

extension DecodedPicture {
    /// The shim's picture, checked as libde265's is: plane pointers present and strides
    /// wide enough for the plane's samples.
    init(_ picture: h2j_avc_picture) throws(TileDecodingError) {
        let (width, height) = (Int(picture.width), Int(picture.height))
        let chromaFormat = Int(picture.chroma_format), bitDepth = Int(picture.bit_depth)
        guard (0...3).contains(chromaFormat), width > 0, height > 0 else {
            throw TileDecodingError("libavcodec returned a \(width)×\(height) picture with chroma format \(chromaFormat)")
        }
        let pointers = [picture.planes.0, picture.planes.1, picture.planes.2]
        let strides = [Int(picture.strides.0), Int(picture.strides.1), Int(picture.strides.2)]
        var planes: [(pointer: UnsafePointer<UInt8>, stride: Int)] = []
        for index in 0..<(chromaFormat == 0 ? 1 : 3) {
            let size = DecodedPicture.planeSize(index, width: width, height: height, chromaFormat: chromaFormat)
            guard let pointer = pointers[index], strides[index] >= size.width * ((bitDepth + 7) / 8) else {
                throw TileDecodingError("libavcodec returned an unusable plane \(index) (stride \(strides[index])) for a \(width)×\(height) picture")
            }
            planes.append((pointer, strides[index]))
        }
        // libavcodec decodes only pictures whose luma and chroma depths are equal.
        self.init(width: width, height: height, chromaFormat: chromaFormat, bitDepth: bitDepth,
                  bitDepthChroma: bitDepth, planes: planes)
    }
}
