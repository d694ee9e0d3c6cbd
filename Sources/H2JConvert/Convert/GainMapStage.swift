#if canImport(Glibc)
import Glibc
#endif
import CMemoryFile
import H2JContainer
import H2JJPEG
import H2JJob
import H2JLibheif
import H2JMetadata
import H2JOutputPlan
import H2JSupport

/// The gain map of an Ultra HDR output, already encoded as the JPEG that follows the
/// primary: the source's own, or one computed from a tone-mapped HDR image.
struct EncodedGainMap {
    /// The source's gain map; nil for a computed one.
    let source: GainMapSource?
    /// For the report: where the HDR rendition comes from.
    let description: String
    /// The whole gain-map JPEG: its XMP (Adobe's gain map), its ISO 21496-1 APP2, pixels.
    let jpeg: GainMapJPEG
}

/// A gain-map JPEG in the anonymous in-memory file it was encoded into (the worker's
/// sandbox allows no other file), whose length the primary's XMP states before the gain
/// map goes into the output after it, straight from that file's pages.
final class GainMapJPEG {
    /// The in-memory file, closed with this.
    private let fd: Int32
    private(set) var count = 0

    /// A new, empty in-memory file.
    init() throws(WriteError) {
        fd = h2j_memory_file()
        guard fd >= 0 else { throw WriteError.system("gain map", "cannot create an in-memory file") }
    }

    deinit { close(fd) }

    /// Encodes into the file (`body` writes to the descriptor), then takes its length.
    func encode(_ body: (Int32) throws -> Void) throws {
        try body(fd)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw WriteError.system("gain map", "fstat") }
        count = Int(info.st_size)
    }

    /// Writes the whole JPEG to `output` from the file mapped, not read into an array.
    func write(to output: Int32, path: String) throws(WriteError) {
        guard count > 0 else { return }
        let mapped = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0)
        guard let mapped, mapped != UnsafeMutableRawPointer(bitPattern: -1) else { throw WriteError.system("gain map", "mmap") }
        defer { munmap(mapped, count) }
        try POSIX.writeAll(UnsafeRawBufferPointer(start: mapped, count: count), to: output, path: path)
    }
}

/// The gain map of an Ultra HDR output: the source's own (decoded through the stages
/// every image goes through, `ImageStages`), or one computed from a tone-mapped image.
struct GainMapStage {
    let stages: ImageStages
    private var options: ConversionOptions { stages.options }

    /// The primary's gain map encoded for an Ultra HDR output (the plan's
    /// `ultraHDRPrimary`: keep mode with `--hdr ultrahdr`); nil when there is none. A gain map that cannot be used
    /// (ISO says to ignore it, its headroom is unknown, it does not decode) adds a
    /// warning, and the output is SDR: the gain map never fails the source. Its stages
    /// name its item (`onStage`), so a worker that dies on it costs only the gain map: the
    /// job runs again with it omitted (`ConversionJob.omittedImages`), and the output is SDR.
    func ultraHDRGainMap(_ found: GainMapSource?, _ warning: Warning?, _ context: ConversionContext,
                         warnings: inout [Warning]) -> EncodedGainMap? {
        if let warning { warnings.append(warning) }
        guard let found else { return nil }
        if let omitted = context.job.omittedImages.first(where: { $0.item == found.item }) {
            warnings.append(Warning(.gainMapNotUsed, "the gain map (item \(found.item)) cannot be decoded: \(omitted); written as SDR only"))
            return nil
        }
        do {
            return EncodedGainMap(source: found, description: found.description, jpeg: try encodedGainMap(found, of: context))
        } catch {
            warnings.append(Warning(.gainMapNotUsed, "the gain map (item \(found.item)) cannot be decoded: \(error); written as SDR only"))
            return nil
        }
    }

    /// The gain map of an HDR base (`found.hdrBase`) decoded whole for the primary's SDR
    /// rendition, and, for an Ultra HDR output, encoded from the same pixels as the gain
    /// map back to the HDR base. nil, with a warning, when it cannot be decoded: the
    /// primary is then tone-mapped by heic2jpg's curve (and its gain map computed). Its
    /// stages name its item, as `ultraHDRGainMap`'s do.
    func appliedGainMap(_ found: GainMapSource, of context: ConversionContext, ultraHDR: Bool,
                        warnings: inout [Warning]) -> (AppliedGainMap, EncodedGainMap?)? {
        guard let stated = found.hdrBase else { return nil }
        let item = found.item
        func notUsed(_ cause: String) -> (AppliedGainMap, EncodedGainMap?)? {
            warnings.append(Warning(.gainMapNotUsed, "the gain map (item \(item)) cannot be decoded: \(cause); the SDR rendition is tone-mapped instead"))
            return nil
        }
        if let omitted = context.job.omittedImages.first(where: { $0.item == item }) { return notUsed("\(omitted)") }
        do {
            let image = try gainMapImage(item, of: context)
            var engine = try stages.at(.engine, engine: .libheif, image: item) { try LibheifConversion(image) }
            try stages.at(.limit, engine: .libheif, image: item) { try LimitError.check(width: engine.width, height: engine.height, maxPixels: options.maxPixels) }
            try stages.at(.decode, engine: .libheif, image: item) { try engine.decode() }
            let pixels = try stages.at(.decode, engine: .libheif, image: item) { () throws -> Raster in
                guard let held = try engine.heldPixels() else { throw LibheifError(message: "the gain map decodes to other than its size") }
                return held
            }
            // The gain applies in the base's primaries, or the alternate's (the `tmap` item's nclx) when the metadata says so.
            let base = SourceMetadata.nclx(context.structure, context.structure.primaryID)?.primaries ?? 2
            let primaries = stated.useBaseColourSpace ? base
                : found.toneMap.flatMap { SourceMetadata.nclx(context.structure, $0)?.primaries } ?? base
            let applied = AppliedGainMap(item: item, metadata: stated, primaries: primaries, pixels: pixels)
            guard ultraHDR else { return (applied, nil) }
            let held = HeldGainMap(pixels: Array(pixels.pixels), width: pixels.width, height: pixels.height, components: pixels.components)
            let jpeg = try stages.at(.write, engine: .libheif, image: item) {
                try gainMapJPEG(held, chain: PixelStage.chain(for: options, role: context.role(scaledWith: context.structure.primaryID),
                                                              width: held.width, height: held.height), metadata: found.metadata, xmp: nil)
            }
            return (applied, EncodedGainMap(source: found, description: found.description, jpeg: jpeg))
        } catch {
            return notUsed("\(error)")
        }
    }

    /// The gain map that takes a tone-mapped image's SDR pixels back to its HDR ones
    /// (`ToneMappedConversion.gainMap`), encoded; nil, with a warning, when that fails.
    /// Scaled as the primary, `engine` (whose upright size it was computed for), is.
    func computedGainMap(_ engine: ToneMappedConversion, warnings: inout [Warning]) -> EncodedGainMap? {
        do {
            let map = try engine.gainMap()
            let chain = PixelStage.chain(for: options, role: .scaledWith(width: engine.width, height: engine.height),
                                         width: map.width, height: map.height)
            let jpeg = try gainMapJPEG(HeldGainMap(pixels: map.codes, width: map.width, height: map.height, components: 1),
                                       chain: chain, metadata: map.metadata, xmp: nil)
            let stops = map.metadata.alternateHDRHeadroom.value ?? 0
            return EncodedGainMap(source: nil, description: "gain map computed from the HDR and SDR renditions (\(map.width)×\(map.height), "
                                  + "up to \(UltraHDRXMP.text(stops)) stops); SDR tone-mapped: " + (engine.toneMapping ?? ""),
                                  jpeg: jpeg)
        } catch {
            warnings.append(Warning(.gainMapNotUsed, "the gain map of the HDR image cannot be computed: \(error); written as SDR only"))
            return nil
        }
    }

    /// Gain map `item` as the primary of an HEIF of its own (`ConversionContext.standalone`,
    /// whether it is an auxiliary image or only a `tmap` input), with its own transforms,
    /// else the primary's (`HEIFStructure.inheritedTransforms`): the parse stage of its decode.
    private func gainMapImage(_ item: UInt32, of context: ConversionContext) throws -> ConversionContext {
        try stages.at(.parse, image: item) { () throws -> ConversionContext in
            try context.structure.checkCodecs(of: item)
            try context.structure.checkDerivation(of: item, from: context.source, maxPixels: options.maxPixels)
            return try context.standalone(item, adding: context.structure.inheritedTransforms(ofGainMap: item))
        }
    }

    /// The gain-map JPEG: the gain map decoded at its own resolution, lying as the photo
    /// does (`gainMapImage`), by the stages every image goes through, its codes remapped
    /// when they are Apple's (a `CodeMapping` step before the pixel stage's, which scales
    /// it as the primary is scaled), with the XMP and ISO APP2 that describe it (and the
    /// gain map's own XMP).
    private func encodedGainMap(_ gainMap: GainMapSource, of context: ConversionContext) throws -> GainMapJPEG {
        let item = gainMap.item
        let image = try gainMapImage(item, of: context)
        var engineUsed: ConversionResult.Engine?
        let (engine, chain, _) = try stages.decoded(image, role: context.role(scaledWith: context.structure.primaryID),
                                                    before: gainMap.codeMapping.map { [CodeMapping(table: $0)] } ?? [],
                                                    engineUsed: &engineUsed, image: item)
        return try stages.at(.write, engine: engine.kind, image: item) {
            try gainMapJPEG(engine, chain: chain, metadata: gainMap.metadata, xmp: gainMap.xmp)
        }
    }

    /// A gain-map JPEG encoded (`ImageEncoder`) into an anonymous in-memory file, with
    /// the XMP (`xmp`, a gain map's own, with our claims replacing its own) and the ISO
    /// APP2 that describe it.
    private func gainMapJPEG(_ source: any ConversionEngine, chain: PixelChain, metadata: GainMapMetadata,
                             xmp packet: [UInt8]?) throws -> GainMapJPEG {
        let jpeg = try GainMapJPEG()
        let size = try ImageEncoder.encodedSize(source, chain: chain)
        try jpeg.encode { fd in
            try ImageEncoder.encode(source, chain: chain, options: options, to: fd, path: "gain map", strip: false) { sink in
                let xmp = XMPForJPEG.make(packet: packet, width: size.width, height: size.height,
                                          adding: UltraHDRXMP.gainMapProperties(metadata))
                if let payload = xmp.payload { try sink.writeMarker(0xE1, payload) }
                try sink.writeMarker(0xE2, JPEGAPPSignature.iso21496 + metadata.isoPayload)
            }
        }
        return jpeg
    }
}

/// A gain map held whole in memory, a source of bands like any engine's: one computed
/// from a tone-mapped image's two renditions (`GainMapComputation`, one code per 2×2
/// block), or an HDR base's own, decoded once to be applied and written back.
private struct HeldGainMap: ConversionEngine {
    let pixels: [UInt8]
    let width: Int
    let height: Int
    /// 1 gray, 3 RGB.
    let components: Int

    var kind: ConversionResult.Engine { .libheif }
    var warnings: [Warning] { [] }
    func libraryMetadata() -> SourceMetadata? { nil }
    mutating func decode() {}

    func pixelFormat() -> PixelFormat {
        PixelFormat(width: width, height: height, layout: .rows(components: components, subsampling: .s444))
    }

    func emit(into sink: any PixelSink) throws {
        try pixels.withUnsafeBufferPointer { try sink.writeRows($0.baseAddress!, stride: width * components, count: height) }
    }
}
