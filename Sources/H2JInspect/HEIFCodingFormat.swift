import H2JContainer
import H2JJPEG
import H2JSupport
import H2JUncompressed

/// Bit depth and chroma format of a HEIF image item, from its decoder configuration:
/// for HEVC the SPS inside `hvcC` (the true values; `hvcC`'s own summary fields when the
/// SPS cannot be read), for AV1 the `av1C` flags, for a JPEG item its codestream's frame
/// header, for an uncompressed image its `uncC` (the widest component; `4:4:4` for RGB),
/// else `pixi`. A derived image (`grid`, `iovl`, `iden`) is coded as its first input.
struct HEIFCodingFormat: Equatable {
    /// Luma bits per sample.
    var bitDepth: Int?
    /// `4:0:0`, `4:2:0`, `4:2:2` or `4:4:4`.
    var chroma: String?

    /// Derived images nest at most this deep before the search gives up.
    static let maxDepth = 4

    init(_ structure: HEIFStructure, item: UInt32, source: ByteSource) {
        self.init(structure, item: item, source: source, depth: 0)
    }

    private init(_ structure: HEIFStructure, item: UInt32, source: ByteSource, depth: Int) {
        let pixiDepth = structure.bitDepths(of: item)?.first
        let type = structure.items[item]?.type
        if type == "jpeg", let frame = (try? structure.jpegCodestream(of: item, from: source)).flatMap(JPEGSegments.init)?.frameHeader {
            bitDepth = frame.precision
            chroma = frame.chroma
        } else if type == "unci", let format = try? UncompressedImage(structure, item: item).format {
            bitDepth = format.components.filter { $0.role != .alpha && $0.role != .ignored }.map(\.bitDepth).max()
            switch (format.model, format.sampling) {
            case (.gray, _): chroma = "4:0:0"
            case (_, .none): chroma = "4:4:4"
            case (_, .s422): chroma = "4:2:2"
            case (_, .s420): chroma = "4:2:0"
            case (_, .s411): chroma = "4:1:1"
            }
        } else if let hvcC = structure.properties(of: item, type: "hvcC").first,
           let configuration = try? HEVCConfiguration.parse(hvcC.payload) {
            let sps = configuration.parameterSets.lazy.compactMap(HEVCSequenceParameters.parse(nal:)).first
            bitDepth = sps?.bitDepthLuma ?? configuration.bitDepthLuma
            chroma = Self.chromaName(sps?.chromaFormat ?? configuration.chromaFormat)
        } else if let av1C = structure.properties(of: item, type: "av1C").first, let flags = ByteReader(av1C.payload).u8(2) {
            // seq_tier_0, high_bitdepth, twelve_bit, mono_chrome, subsampling_x, subsampling_y, …
            bitDepth = flags & 0x40 == 0 ? 8 : flags & 0x20 != 0 ? 12 : 10
            chroma = flags & 0x10 != 0 ? "4:0:0" : flags & 0x08 == 0 ? "4:4:4" : flags & 0x04 == 0 ? "4:2:2" : "4:2:0"
        } else if depth < Self.maxDepth, let input = structure.referenced(from: item, type: "dimg").first, input != item {
            self = HEIFCodingFormat(structure, item: input, source: source, depth: depth + 1)
            bitDepth = bitDepth ?? pixiDepth
            return
        } else {
            bitDepth = pixiDepth
            chroma = nil
        }
    }

    /// The J:a:b name of an H.265 `chroma_format_idc`.
    static func chromaName(_ format: Int) -> String? {
        switch format {
        case 0: "4:0:0"
        case 1: "4:2:0"
        case 2: "4:2:2"
        case 3: "4:4:4"
        default: nil
        }
    }
}
