import H2JColour
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JLibheif
import H2JSupport

/// The engine of every PQ or HLG image: libheif decodes it at its own bit depth
/// (`DeepDecodedImage`), and each band is tone-mapped to SDR on its way to the sink
/// (`HDRToneMapping`) into Display P3, whose profile the output carries in either mode
/// (`outputColour`), as every output keeps its colour. For an Ultra HDR output the
/// converter also asks it for a gain map computed from both renditions (`gainMap`).
/// A source whose gain map takes this HDR base to its SDR rendition gets that rendition
/// instead (`GainMapApplication`), in the primaries the gain applies in.
struct ToneMappedConversion: ConversionEngine {
    private let item: LibheifItem
    private let nclx: NCLX
    /// Where each upright pixel is in the untransformed decode, when libheif cannot
    /// apply the transforms (`LibheifItem.ownTransforms`).
    private var geometry: PlaneGeometry?
    private let background: RGBColor
    /// The SDR rendition's chroma subsampling (`--sampling`).
    private let sampling: ChromaSubsampling
    private var image: DeepDecodedImage?
    private var mapping: HDRToneMapping?
    /// The source's gain map to the SDR rendition, and once decoded its application.
    private let appliedGainMap: AppliedGainMap?
    private var application: GainMapApplication?
    /// Why the gain map could not be applied.
    private var applicationWarnings: [Warning] = []

    /// Rows tone-mapped and handed to the encoder at once.
    private static let bandRows = 16

    /// Opens the item's handle; nothing is decoded. `nclx` is the item's, with an HDR transfer.
    init(_ conversion: ConversionContext, nclx: NCLX, gainMap: AppliedGainMap? = nil) throws {
        item = try LibheifItem(conversion)
        self.nclx = nclx
        appliedGainMap = gainMap
        background = conversion.options.background
        sampling = conversion.colourSampling
    }

    var kind: ConversionResult.Engine { .libheif }
    var width: Int { geometry?.width ?? item.handle.width }
    var height: Int { geometry?.height ?? item.handle.height }
    var warnings: [Warning] { (image?.warnings ?? []) + applicationWarnings }
    func libraryMetadata() -> SourceMetadata? { item.metadata() }

    /// Display P3 with the sRGB transfer: what the tone-mapped pixels are (the gain's
    /// primaries when a gain map was applied).
    var outputColour: NCLX? {
        NCLX(primaries: application?.primaries ?? HDRToneMapping.displayP3, transfer: 13, matrix: 0, fullRange: true)
    }

    /// What ran, for the report (after `decode`); nil when the source's gain map was applied.
    var toneMapping: String? { application == nil ? mapping?.description : nil }

    mutating func decode() throws {
        let decoded = try DeepDecodedImage(decoding: item.handle, transformed: item.ownTransforms == nil)
        if let ownTransforms = item.ownTransforms {
            geometry = try PlaneGeometry(canvasWidth: decoded.width, canvasHeight: decoded.height, transforms: ownTransforms)
        }
        guard let mapping = HDRToneMapping(nclx: nclx, bitDepth: decoded.bitDepth, targetPrimaries: HDRToneMapping.displayP3) else {
            throw LibheifError(message: "no tone mapping for nclx \(nclx.primaries)/\(nclx.transfer) at \(decoded.bitDepth) bits")
        }
        image = decoded
        self.mapping = mapping
        if let applied = appliedGainMap {
            application = GainMapApplication(nclx: nclx, bitDepth: decoded.bitDepth, metadata: applied.metadata, primaries: applied.primaries,
                                             gainMap: applied.pixels, imageWidth: width, imageHeight: height)
            if application == nil {
                applicationWarnings.append(Warning(.gainMapNotUsed, "the gain map (item \(applied.item)) cannot be applied to nclx "
                                                   + "\(nclx.primaries)/\(nclx.transfer) at \(decoded.bitDepth) bits; the SDR rendition is tone-mapped instead"))
            }
        }
    }

    func pixelFormat() throws -> PixelFormat {
        _ = try decoded()
        return PixelFormat(width: width, height: height, layout: .rows(components: 3, subsampling: sampling))
    }

    /// The SDR rendition, band by band.
    func emit(into sink: any PixelSink) throws {
        let (image, mapping) = try decoded()
        let stride = width * 3
        var band = [UInt8](repeating: 0, count: stride * Self.bandRows)
        var y = 0
        while y < height {
            let count = min(Self.bandRows, height - y)
            try band.withUnsafeMutableBufferPointer { out in
                for r in 0..<count { sdrRow(y + r, image, mapping, into: out.baseAddress! + r * stride) }
                try sink.writeRows(out.baseAddress!, stride: stride, count: count)
            }
            y += count
        }
    }

    /// The gain map that takes this SDR rendition, the tone curve's, back to the HDR one
    /// (`GainMapComputation`): a second pass over the decoded image, row by row.
    func gainMap() throws -> (codes: [UInt8], width: Int, height: Int, metadata: GainMapMetadata) {
        let (image, mapping) = try decoded()
        var computation = GainMapComputation(imageWidth: width, imageHeight: height)
        var sdr = [UInt8](repeating: 0, count: width * 3)
        var light = (hdr: [Float](repeating: 0, count: width), sdr: [Float](repeating: 0, count: width))
        for y in 0..<height {
            sdr.withUnsafeMutableBufferPointer { out in
                light.hdr.withUnsafeMutableBufferPointer { hdr in
                    light.sdr.withUnsafeMutableBufferPointer { sdrLight in
                        sdrRow(y, image, mapping, into: out.baseAddress!, light: (hdr.baseAddress!, sdrLight.baseAddress!))
                        computation.add(hdr: hdr.baseAddress!, sdr: sdrLight.baseAddress!)
                    }
                }
            }
        }
        let (codes, metadata) = computation.finish()
        return (codes, computation.width, computation.height, metadata)
    }

    /// One row of SDR pixels, alpha composited over the background; with `light`, each
    /// pixel's HDR and SDR luminance as seen once composited (a transparent pixel shows
    /// the background in both renditions).
    private func sdrRow(_ y: Int, _ image: DeepDecodedImage, _ mapping: HDRToneMapping, into out: UnsafeMutablePointer<UInt8>,
                        light: (hdr: UnsafeMutablePointer<Float>, sdr: UnsafeMutablePointer<Float>)? = nil) {
        withUprightRow(y, image) { row in
            if let application {
                application.map(row, y: y, channels: image.channels, into: out)
            } else {
                mapping.map(row, channels: image.channels, width: width, into: out, light: light)
            }
            guard image.channels == 4 else { return }
            let top = (1 << image.bitDepth) - 1
            let bg = [background.red, background.green, background.blue]
            for x in 0..<width {
                let alpha = (min(Int(row[4 * x + 3]), top) * 255 + top / 2) / top
                guard alpha < 255 else { continue }
                for c in 0..<3 {
                    out[3 * x + c] = RGBColor.composite(out[3 * x + c], alpha: alpha, over: bg[c], premultiplied: image.premultiplied)
                }
                if let light {
                    let composited = mapping.luminance(ofCodes: out + 3 * x)
                    let a = Float(alpha) / 255
                    light.hdr[x] = a * light.hdr[x] + (1 - a) * composited
                    light.sdr[x] = composited
                }
            }
        }
    }

    /// Calls `body` with upright row `y`: the decoded row, or with `geometry` the pixels
    /// it maps the row to, gathered.
    private func withUprightRow<T>(_ y: Int, _ image: DeepDecodedImage, _ body: (UnsafePointer<UInt16>) -> T) -> T {
        guard let geometry else { return body(image.row(y)) }
        let channels = image.channels
        var gathered = [UInt16](repeating: 0, count: geometry.width * channels)
        for u in 0..<geometry.width {
            let (x, v) = geometry.canvas(u, y)
            let source = image.row(v) + x * channels
            for c in 0..<channels { gathered[u * channels + c] = source[c] }
        }
        return gathered.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private func decoded() throws(LibheifError) -> (DeepDecodedImage, HDRToneMapping) {
        guard let image, let mapping else { throw LibheifError(message: "the image was not decoded") }
        return (image, mapping)
    }
}
