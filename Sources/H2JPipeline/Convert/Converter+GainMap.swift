#if canImport(Glibc)
import Glibc
#endif
import CWorkerIPC
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JMetadata
import H2JSupport

/// A source's gain map, found and already encoded as the JPEG that follows the primary
/// in an Ultra HDR file.
struct EncodedGainMap {
    let source: GainMapSource
    /// The whole gain-map JPEG: its XMP (Adobe's gain map), its ISO 21496-1 APP2, pixels.
    let jpeg: [UInt8]
}

extension Converter {
    /// The primary's gain map encoded for an Ultra HDR output, in keep mode with `--hdr
    /// ultrahdr`; nil otherwise, or when there is none. A gain map that cannot be used
    /// (ISO says to ignore it, its headroom is unknown, it does not decode) adds a
    /// warning, and the output is SDR: the gain map never fails the source.
    func ultraHDRGainMap(_ context: ConversionContext, warnings: inout [Warning]) -> EncodedGainMap? {
        guard options.hdr == .ultraHDR, options.metadata == .keep else { return nil }
        let (found, warning) = GainMapSource.find(context.structure, source: context.source)
        if let warning { warnings.append(warning) }
        guard let found else { return nil }
        do {
            return EncodedGainMap(source: found, jpeg: try encodedGainMap(found, of: context))
        } catch {
            warnings.append(Warning(.gainMapNotUsed, "the gain map (item \(found.item)) cannot be decoded: \(error); written as SDR only"))
            return nil
        }
    }

    /// The gain-map JPEG: the gain map decoded at its own resolution with its own
    /// transforms (as the primary of an HEIF of its own, `ConversionContext.standalone`,
    /// whether it is an auxiliary image or only a `tmap` input), its codes remapped when
    /// they are Apple's, encoded without chroma subsampling (gray unless its channels
    /// differ) into an anonymous in-memory file (the worker's sandbox allows no other),
    /// with the XMP and ISO APP2 that describe it (and the gain map's own XMP).
    private func encodedGainMap(_ gainMap: GainMapSource, of context: ConversionContext) throws -> [UInt8] {
        try context.structure.checkCodecs(of: gainMap.item)
        try context.structure.checkDerivation(of: gainMap.item, from: context.source, maxPixels: options.maxPixels)
        let image = try context.standalone(gainMap.item)
        var (engine, _) = try ConversionEngines.choose(image, decoders: decoders)
        try checkLimit(width: engine.width, height: engine.height)
        try engine.decode()
        let fd = h2j_memory_file()
        guard fd >= 0 else { throw WriteError.system("gain map", "cannot create an in-memory file") }
        defer { close(fd) }
        let writer = try JPEGWriter(fd: fd)
        try engine.start(writer, quality: options.quality)
        // The gain map's own XMP (Apple's version and headroom) is kept, its claims replaced by ours.
        let xmp = XMPForJPEG.make(packet: gainMap.xmp, width: engine.width, height: engine.height,
                                  adding: UltraHDRXMP.gainMapProperties(gainMap.metadata))
        if let payload = xmp.payload { try writer.writeMarker(0xE1, payload) }
        try writer.writeMarker(0xE2, JPEGAPPSignature.iso21496 + gainMap.metadata.isoPayload)
        try engine.writePixels(to: writer, mapping: gainMap.codeMapping.map(SampleMapping.init(table:)))
        try writer.finish()
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw WriteError.system("gain map", "fstat") }
        return try FileByteSource(fd: fd, size: Int(info.st_size)).read(at: 0, count: Int(info.st_size))
    }
}
