#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JLibheif
import H2JMetadata
import H2JOutputPlan
import H2JSupport
import H2JTiles

/// Runs one job to its result: sniffed and planned already, so what is left is the
/// stages parse (and `ConversionPlan`) → engine → limit → decode → graft → write, image
/// by image (see `convert`), or a copy.
///
/// Invariant: `run` never throws and never traps on bad input; every failure becomes a
/// `failed` result whose reason names the cause, and leaves no output behind.
package struct Converter: Sendable {
    package let options: ConversionOptions
    /// Where outputs go: published in this process, or handed to the parent by a worker.
    let destination: any OutputDestination
    /// The stages every image goes through before it is encoded, announced as they start.
    let stages: ImageStages
    /// The gain maps of Ultra HDR outputs, through the same stages.
    private var gainMaps: GainMapStage { GainMapStage(stages: stages) }

    /// `onStage` is told when each stage starts (and, once chosen, the engine, and the
    /// image item when the stage is for an output that does not hold the primary): a
    /// worker passes it on to its parent, which names the stage if the worker dies in it,
    /// and runs the job again without that image (`ConversionJob.omittedImages`).
    package init(options: ConversionOptions, decoders: TileDecoderPool, destination: any OutputDestination,
                 onStage: @escaping @Sendable (PipelineError.Stage, ConversionResult.Engine?, UInt32?) -> Void = { _, _, _ in }) {
        self.options = options
        self.destination = destination
        stages = ImageStages(options: options, decoders: decoders, onStage: onStage)
    }

    /// The job's result (its `milliseconds` left for the caller, which also settles the
    /// job's reservation).
    package func run(_ job: ConversionJob) -> ConversionResult {
        var result: ConversionResult
        var engine: ConversionResult.Engine?
        do {
            switch job.action {
            case .convert: result = try convert(job, engine: &engine)
            case .copy: result = try at(.copy) { try copy(job) }
            }
        } catch {
            result = .failed(source: job.source.display, output: job.output.display, error)
            result.engine = engine
        }
        return result
    }

    /// Runs one stage, announced (`ImageStages.at`).
    private func at<T>(_ stage: PipelineError.Stage, engine: ConversionResult.Engine? = nil, image: UInt32? = nil,
                       _ body: () throws -> T) throws(PipelineError) -> T {
        try stages.at(stage, engine: engine, image: image, body)
    }

    // MARK: - Convert

    /// The stages, in order: open → parse (structure, item, integrity, `ConversionPlan`)
    /// → choose the engine → check the pixel limit on the upright size → decode → graft →
    /// write (`ImageEncoder`, through the pixel stage), for each output the plan lists: the primary's, then (`--images all`, to a
    /// path) each other still image's as `NAME-2.jpg`, `NAME-3.jpg`, …, a stereo pair as
    /// one MPO or two files, and the `--aux` images. Nothing is decoded before the limit
    /// check, and no output is opened before the decode (libheif) has succeeded. The
    /// primary's failure fails the source, and the parent then publishes none of its
    /// outputs. Another image that cannot be converted (coded in a type heic2jpg does not
    /// decode, a broken structure or bitstream) is left out, with an `image-not-converted`
    /// warning that says why, and named in the `content-not-converted` one, which keeps
    /// the original from being handed off; only a resource that ran out fails the source
    /// there. `engineUsed` is set once the engine is chosen, so a failure's report names it.
    private func convert(_ job: ConversionJob, engine engineUsed: inout ConversionResult.Engine?) throws(PipelineError) -> ConversionResult {
        var (context, conversion) = try at(.parse) { try parse(job) }
        // `source` reads through the file's descriptor; keep the file (which closes it
        // on deinit) alive until every tile has been read.
        defer { withExtendedLifetime(context.file) {} }
        let structure = context.structure, primaryID = context.item.id
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
        // `--thumbnail`: the primary's output is made from its embedded thumbnail when that will do.
        let thumbnail = options.thumbnail ? options.maxSize.flatMap { EmbeddedThumbnail.chosen(for: context, box: $0, stages: stages) } : nil
        var warnings = structure.declaredSizeWarnings(from: context.source)
        // The source's gain map, decoded only when an output will carry it, or, whatever the
        // outputs, when it takes an HDR (PQ, HLG) base to its SDR rendition (`ConversionPlan`).
        let ultraHDRPrimary = conversion.ultraHDRPrimary
        let (found, notUsed) = (conversion.gainMap, conversion.gainMapNotUsed)
        var gainMap: EncodedGainMap?
        var ahead: ImageStages.ChosenImage?
        if let found, found.hdrBase != nil {
            if let (applied, encoded) = gainMaps.appliedGainMap(found, of: context, ultraHDR: ultraHDRPrimary, warnings: &warnings) {
                context.appliedGainMap = applied
                gainMap = encoded
            }
        } else if ultraHDRPrimary {
            ahead = try primaryAhead(context, gainMap: found, thumbnail: thumbnail != nil, engineUsed: &engineUsed)
            gainMap = gainMaps.ultraHDRGainMap(found, notUsed, context, warnings: &warnings)
        }
        // Auxiliary images written with their metadata: `--aux` ones, and the gain map of an Ultra HDR output.
        let plannedAuxiliaries = Set(conversion.outputs.filter { $0.plan.master != nil }.flatMap(\.plan.items)
                                     + (gainMap?.source.map { [$0.item] } ?? []))
        context.carriedAuxiliaries = plannedAuxiliaries
        var tally = OutputTally()
        // The mark's digest: the parent's, or the first output's hash of what was read.
        var sourceSHA256 = job.sourceSHA256
        for output in conversion.outputs {
            let plan = output.plan
            let holdsPrimary = plan.items.contains(primaryID)
            /// The image this output is of, named in its stages, unless it holds the primary.
            let other = holdsPrimary ? nil : plan.items[0]
            if let other, let omitted = job.omittedImages.first(where: { plan.items.contains($0.item) }) {
                let failure = OtherImageError(item: other, output: job.path(of: plan.name), underlying: omitted)
                warnings.append(Warning(.imageNotConverted, "\(failure)"))
                continue
            }
            var otherEngine: ConversionResult.Engine?
            do throws(PipelineError) {
                // The plan checked every image before anything was decoded; a refused one is left out.
                let contexts = try at(.parse, image: other) { () throws(HEIFError) -> [ConversionContext] in
                    if let refusal = output.refusal { throw refusal }
                    return zip(plan.items, output.images).map { id, image in
                        id == primaryID && plan.master == nil ? thumbnail?.context ?? context : context.converting(image, master: plan.master)
                    }
                }
                let ultraHDR = output.carriesGainMap
                let written = holdsPrimary
                    ? try write(contexts, as: plan.name, engineUsed: &engineUsed, sourceSHA256: sourceSHA256,
                                ultraHDR: ultraHDR, gainMap: ultraHDR ? gainMap : nil, first: ultraHDR ? ahead : nil)
                    : try write(contexts, as: plan.name, engineUsed: &otherEngine, sourceSHA256: sourceSHA256, image: other)
                sourceSHA256 = sourceSHA256 ?? written.sourceSHA256
                result.outputs.append(written.file)
                tally.add(items: plan.items, master: plan.master)
                if holdsPrimary {
                    result.output = written.file.path
                    result.bytes = written.file.bytes
                    result.outputSHA256 = written.file.sha256
                    result.engine = written.engine
                    result.engineReason = [thumbnail?.note, written.refusal].compactMap { $0 }.joined(separator: "; ")
                    if result.engineReason?.isEmpty == true { result.engineReason = nil }
                    result.width = written.file.width
                    result.height = written.file.height
                    result.metadata = written.metadata
                    if let used = written.gainMap {
                        tally.carries(gainMap: used.source, description: used.description)
                        if let tooLarge = UltraHDRReaderLimit.warning(width: written.file.width, height: written.file.height) {
                            warnings.append(tooLarge)
                        }
                    } else if written.toneMapping == nil, context.appliedGainMap != nil, let found {
                        tally.rendersSDR(with: found)
                    } else if let toneMapping = written.toneMapping {
                        tally.rendersSDR(toneMapped: toneMapping)
                    }
                }
                for (id, said) in written.warnings {
                    guard id != primaryID || plan.master != nil else {
                        warnings += said
                        continue
                    }
                    let more = structure.declaredSizeWarnings(of: id, from: context.source)
                    warnings += (more + said).map { Warning($0.code, "image item \(id): \($0.message)") }
                }
            } catch where !holdsPrimary {
                let failure = OtherImageError(item: plan.items[0], output: job.path(of: plan.name),
                                              underlying: error.underlying)
                // A resource that ran out, or an interruption, ends the source (and the run);
                // an image that cannot be read is left out, named, and keeps the original.
                if error.code.isExhaustion || error.code == .interrupted { throw PipelineError(error.stage, failure) }
                warnings.append(Warning(.imageNotConverted, "\(failure)"))
            }
        }
        result.hdr = tally.hdr
        (result.notCarried, result.leftOut) = tally.notCarried(in: structure, options.outputChoices)
        result.warnings = warnings + [HEIFStructure.contentNotConvertedWarning(result.notCarried, excluded: result.leftOut)].compactMap { $0 }
        return result
    }

    /// The primary through its engine and limit stages before its gain map is converted,
    /// when the run gives it more than one lane (one photo): the tile engine's other lanes
    /// then decode its first bands while this thread decodes and encodes the gain map,
    /// which is one tile. Its decode stage comes when it is written, as for any engine. nil
    /// otherwise (a batch, which keeps every core busy; no gain map, or one omitted; a
    /// thumbnail in the primary's place): the primary's stages all come then.
    private func primaryAhead(_ context: ConversionContext, gainMap: GainMapSource?, thumbnail: Bool,
                              engineUsed: inout ConversionResult.Engine?) throws(PipelineError) -> ImageStages.ChosenImage? {
        guard options.decodingThreads > 1, !thumbnail, let gainMap,
              !context.job.omittedImages.contains(where: { $0.item == gainMap.item }) else { return nil }
        var chosen = try stages.chosen(context, role: .picture, engineUsed: &engineUsed, image: nil)
        if var tiles = chosen.engine as? TileConversion {
            tiles.decodeAhead()
            chosen.engine = tiles
        }
        return chosen
    }

    /// What writing one output gave: the file and what the result reports of it.
    private struct WrittenImage {
        let file: OutputFile
        /// The engine and its refusal, and the metadata kept, of the output's first image.
        let engine: ConversionResult.Engine
        let refusal: String?
        let metadata: MetadataKept
        let sourceSHA256: String?
        /// Each image's warnings, by item.
        let warnings: [(UInt32, [Warning])]
        /// The gain map written after the first image (an Ultra HDR output), and the tone
        /// mapping the first image's pixels went through (a PQ or HLG image).
        let gainMap: EncodedGainMap?
        let toneMapping: String?
    }

    /// One image ready to be written: engine chosen, pixel limit checked, decoded
    /// (libheif), pixel stage and graft decided.
    private struct PreparedImage {
        let context: ConversionContext
        var engine: any ConversionEngine
        let refusal: String?
        let chain: PixelChain
        /// The size its pixels are encoded at: the output's, and its metadata's.
        let size: (width: Int, height: Int)
        let graft: MetadataGraft
    }

    /// Writes one output `name`: one image, that image with its gain map after it (an
    /// Ultra HDR JPEG), or (two contexts) a stereo MPO of the left and the right view
    /// (`MultiPictureOutput`). `ultraHDR` marks the output that may be Ultra HDR: it
    /// carries `gainMap`, the source's own already encoded, or, with none, a tone-mapped
    /// (PQ, HLG) image gets one computed. `sourceSHA256` is the digest an earlier image
    /// computed for the mark. `image` names an output that does not hold the primary in
    /// its stages.
    private func write(_ contexts: [ConversionContext], as name: OutputName, engineUsed: inout ConversionResult.Engine?,
                       sourceSHA256: String?, ultraHDR: Bool = false, gainMap: EncodedGainMap? = nil,
                       first ahead: ImageStages.ChosenImage? = nil, image: UInt32? = nil) throws(PipelineError) -> WrittenImage {
        let job = contexts[0].job
        var digest = sourceSHA256
        var prepared: [PreparedImage] = []
        var gainMap = gainMap
        var gainMapWarnings: [Warning] = []
        for (index, context) in contexts.enumerated() {
            let role = context.master.map { context.role(scaledWith: $0) } ?? .picture
            let (engine, chain, refusal) = if index == 0, let ahead { try stages.decode(ahead, image: image) }
                else { try stages.decoded(context, role: role, engineUsed: &engineUsed, image: image) }
            // A tone-mapped image gets a computed gain map: one with none of its own, or whose
            // own could not be applied to it (then it would not lead back to the HDR base).
            if index == 0, ultraHDR, let toneMapped = engine as? ToneMappedConversion,
               gainMap == nil || (gainMap?.source?.hdrBase != nil && toneMapped.toneMapping != nil) {
                // Its own stage, so a crash there is not blamed on the primary's decode.
                gainMap = try stages.at(.gainMap, engine: engine.kind, image: image) {
                    TestCrash.reach(.gainMap)
                    return gainMaps.computedGainMap(toneMapped, warnings: &gainMapWarnings)
                }
            }
            let claims = index == 0 ? gainMap.map { UltraHDRXMP.primaryProperties(gainMapLength: $0.jpeg.count) } ?? [] : []
            let (size, graft) = try at(.graft, engine: engine.kind, image: image) {
                let size = try ImageEncoder.encodedSize(engine, chain: chain)
                return (size, try MetadataGraft(context, engine: engine, width: size.width, height: size.height,
                                                sourceSHA256: digest, xmpAdding: claims))
            }
            digest = digest ?? graft.sourceSHA256
            prepared.append(PreparedImage(context: context, engine: engine, refusal: refusal, chain: chain, size: size, graft: graft))
        }
        let path = job.path(of: name)
        let first = prepared[0]
        let engine = first.engine.kind
        let written = try at(.write, engine: engine, image: image) {
            try destination.write(job, name: name, attributes: first.context.file.map(OutputAttributes.init)) { fd in
                if let gainMap {
                    let iso = [0xFF, 0xE2, 0, 0] + JPEGAPPSignature.iso21496 + GainMapMetadata.isoVersionPayload
                    try MultiPictureOutput.write(to: fd, path: path, types: [.baselinePrimary, .undefined], first: { segment in
                        try encode(first, to: fd, path: path, extras: [iso, segment], trailer: false)
                    }, others: [{ try gainMap.jpeg.write(to: fd, path: path) }])
                    try first.graft.writeTrailer(to: fd, path: path)
                } else if prepared.count == 1 {
                    try encode(first, to: fd, path: path)
                } else {
                    try MultiPictureOutput.write(to: fd, path: path, types: [.disparity, .disparity], first: { segment in
                        try encode(first, to: fd, path: path, extras: [segment], trailer: false)
                    }, others: [{
                        try encode(prepared[1], to: fd, path: path,
                                   extras: [MultiPictureFormat.attributeSegment(number: 2, type: .disparity)], trailer: false)
                    }])
                    // A vendor trailer (the primary's) goes after the last image.
                    for image in prepared { try image.graft.writeTrailer(to: fd, path: path) }
                }
            }
        }
        let file = OutputFile(name: name, path: path, item: first.context.item.id, width: first.size.width,
                              height: first.size.height, bytes: written.bytes, sha256: written.sha256)
        var warnings = prepared.map { ($0.context.item.id, $0.engine.warnings + $0.graft.warnings) }
        warnings[0].1 += gainMapWarnings
        return WrittenImage(file: file, engine: engine, refusal: first.refusal, metadata: first.graft.kept, sourceSHA256: digest,
                            warnings: warnings, gainMap: gainMap, toneMapping: (first.engine as? ToneMappedConversion)?.toneMapping)
    }

    /// The write sequence of one image (`ImageEncoder`): frame header, the graft's
    /// segments (then `extras`, whole segments such as a Multi-Picture one), pixels
    /// through the pixel stage, EOI, and the vendor trailer.
    private func encode(_ image: PreparedImage, to fd: Int32, path: String, extras: [[UInt8]] = [], trailer: Bool = true) throws {
        try ImageEncoder.encode(image.engine, chain: image.chain, options: options, to: fd, path: path,
                                strip: options.metadata == .strip) { sink in
            try image.graft.writeSegments(to: sink)
            for extra in extras { try sink.writeMarker(Int(extra[1]), Array(extra[4...])) }
        }
        if trailer { try image.graft.writeTrailer(to: fd, path: path) }
    }

    /// Opens the source, reads its container (a `mini` file as the ordinary HEIF it stands
    /// for) and plans its conversion (`ConversionPlan`, which `inspect` shows): the
    /// primary must be usable, every item's data must lie inside the file (a file cut
    /// short is refused here, before either engine sees it) and its derivation sound
    /// (`checkDerivation`: what would reach libheif's weak spots).
    private func parse(_ job: ConversionJob) throws -> (ConversionContext, ConversionPlan) {
        var file: SourceFile?
        let fileBytes: ByteSource
        switch job.source {
        case .path(let path):
            let opened = try job.file ?? SourceFile(path: path)
            file = opened
            fileBytes = opened.byteSource
        case .standardStream:
            fileBytes = MemoryByteSource(job.bytes ?? [])
        }
        let source = try MinimizedImage.translating(fileBytes) ?? fileBytes
        let structure = try HEIFStructure.read(from: source)
        let plan = try ConversionPlan.make(structure, source: source, choices: options.outputChoices,
                                           toStream: job.output == .standardStream, maxPixels: options.maxPixels)
        // libheif reads the same bytes, with a `pitm` naming a `tmap` turned to its base.
        let context = ConversionContext(job: job, options: options, source: structure.namingBaseAsPrimary(source), fileBytes: fileBytes,
                                        file: file, structure: structure, item: plan.primary)
        return (context, plan)
    }

    // MARK: - Copy (JPEG content under a HEIF name)

    private func copy(_ job: ConversionJob) throws -> ConversionResult {
        var attributes: OutputAttributes?
        let bytes: [UInt8]
        switch job.source {
        case .path(let path):
            let source = try job.file ?? SourceFile(path: path)
            attributes = OutputAttributes(of: source)
            bytes = try source.readAll()
        case .standardStream:
            bytes = job.bytes ?? []
        }
        let check = JPEGCheck(bytes)
        if let problem = check.problem { throw CorruptJPEGError(reason: problem) }
        let output = options.metadata == .strip ? JPEGMarkerFilter.strippingMetadata(from: bytes) : bytes
        let written = try destination.write(job, name: .primary, attributes: attributes) { fd in
            try POSIX.writeAll(output, to: fd, path: job.output.display)
        }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .copied)
        result.width = check.width
        result.height = check.height
        result.bytes = written.bytes
        result.outputSHA256 = written.sha256
        result.metadata = JPEGMarkerFilter.metadataPresent(in: output)
        result.outputs = [OutputFile(name: .primary, path: job.output.display, item: 0, width: check.width ?? 0, height: check.height ?? 0,
                                     bytes: written.bytes, sha256: written.sha256)]
        return result
    }
}
