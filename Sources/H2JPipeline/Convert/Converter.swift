#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JLibheif
import H2JSupport
import H2JTiles

/// Runs one job to its result: sniffed and planned already, so what is left is the
/// stages parse → engine → limit → graft → decode → write (see `convert`), or a copy.
///
/// Invariant: `run` never throws and never traps on bad input; every failure becomes a
/// `failed` result whose reason names the cause, and leaves no output behind.
package struct Converter: Sendable {
    package let options: ConversionOptions
    /// The tile engine's decoders, shared by every file the converter runs.
    let decoders: TileDecoderPool
    /// Where outputs go: published in this process, or handed to the parent by a worker.
    let destination: any OutputDestination
    /// Told when each stage starts (and, once chosen, the engine): a worker passes it on
    /// to its parent, which names the stage if the worker dies in it.
    let onStage: @Sendable (PipelineError.Stage, ConversionResult.Engine?) -> Void

    package init(options: ConversionOptions, decoders: TileDecoderPool, destination: any OutputDestination,
                 onStage: @escaping @Sendable (PipelineError.Stage, ConversionResult.Engine?) -> Void = { _, _ in }) {
        self.options = options
        self.decoders = decoders
        self.destination = destination
        self.onStage = onStage
    }

    /// The job's result (its `milliseconds` left for the caller, which also settles the
    /// job's reservation).
    package func run(_ job: Job) -> ConversionResult {
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

    /// Runs one stage: tells `onStage`, then turns what it throws into a `PipelineError`.
    private func at<T>(_ stage: PipelineError.Stage, engine: ConversionResult.Engine? = nil,
                       _ body: () throws -> T) throws(PipelineError) -> T {
        onStage(stage, engine)
        return try PipelineError.at(stage, body)
    }

    // MARK: - Convert

    /// The stages, in order: open → parse (structure, item, integrity) → choose the
    /// engine → check the pixel limit on the upright size → graft → decode → write.
    /// Nothing is decoded before the limit check, and no output is opened before the
    /// decode (libheif) has succeeded.
    /// `engineUsed` is set once the engine is chosen, so a failure's report names it.
    private func convert(_ job: Job, engine engineUsed: inout ConversionResult.Engine?) throws(PipelineError) -> ConversionResult {
        let context = try at(.parse) { try parse(job) }
        // `source` reads through the file's descriptor; keep the file (which closes it
        // on deinit) alive until every tile has been read.
        defer { withExtendedLifetime(context.file) {} }
        var (engine, refusal) = try at(.engine) { try ConversionEngines.choose(context, decoders: decoders) }
        engineUsed = engine.kind
        try at(.limit, engine: engine.kind) { try checkLimit(width: engine.width, height: engine.height) }
        let graft = try at(.graft, engine: engine.kind) { try MetadataGraft(context, engine: engine) }
        try at(.decode, engine: engine.kind) { try engine.decode() }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
        let written = try at(.write, engine: engine.kind) { try destination.write(job, attributes: context.file.map(OutputAttributes.init)) { fd in
            let writer = try JPEGWriter(fd: fd)
            try engine.start(writer, quality: options.quality)
            try graft.writeSegments(to: writer)
            try engine.writePixels(to: writer)
            try writer.finish()
            try graft.writeTrailer(to: fd, path: job.output.display)
        } }
        result.bytes = written.bytes
        result.outputSHA256 = written.sha256
        result.engine = engine.kind
        result.engineReason = refusal
        result.width = engine.width
        result.height = engine.height
        result.metadata = graft.kept
        result.sourceSHA256 = graft.sourceSHA256
        result.notCarried = context.structure.contentNotCarried()
        result.warnings = context.structure.declaredSizeWarnings(from: context.source) + engine.warnings + graft.warnings
            + [context.structure.hdrTransferWarning(), HEIFStructure.contentNotConvertedWarning(result.notCarried)].compactMap { $0 }
        return result
    }

    /// Opens the source and reads its container (a `mini` file as the ordinary HEIF it
    /// stands for): the primary must be usable, its derivation sound (`checkDerivation`:
    /// what would reach libheif's weak spots), and every item's data must lie inside the
    /// file (a file cut short is refused here, before either engine sees it).
    private func parse(_ job: Job) throws -> ConversionContext {
        var file: SourceFile?
        let fileBytes: ByteSource
        switch job.source {
        case .path(let path):
            let opened = try SourceFile(path: path)
            file = opened
            fileBytes = opened.byteSource
        case .standardStream:
            fileBytes = MemoryByteSource(job.bytes ?? [])
        }
        let source = try MinimizedImage.translating(fileBytes) ?? fileBytes
        let structure = try HEIFStructure.read(from: source)
        let item = try structure.primaryImage()
        try structure.checkCodecs()
        try structure.checkItemsInFile(size: source.size)
        try structure.checkDerivation(from: source, maxPixels: options.maxPixels)
        return ConversionContext(job: job, options: options, source: source, fileBytes: fileBytes, file: file,
                                 structure: structure, item: item)
    }

    /// Refuses images over `maxPixels` (decompression bombs) before anything is decoded.
    private func checkLimit(width: Int, height: Int) throws(LimitError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= options.maxPixels else {
            throw LimitError(width: width, height: height, maxPixels: options.maxPixels)
        }
    }

    // MARK: - Copy (JPEG content under a HEIF name)

    private func copy(_ job: Job) throws -> ConversionResult {
        var attributes: OutputAttributes?
        let bytes: [UInt8]
        switch job.source {
        case .path(let path):
            let source = try SourceFile(path: path)
            attributes = OutputAttributes(of: source)
            bytes = try source.readAll()
        case .standardStream:
            bytes = job.bytes ?? []
        }
        let check = JPEGCheck(bytes)
        if let problem = check.problem { throw CorruptJPEGError(reason: problem) }
        let output = options.metadata == .strip ? JPEGMarkerFilter.strippingMetadata(from: bytes) : bytes
        let written = try destination.write(job, attributes: attributes) { fd in try POSIX.writeAll(output, to: fd, path: job.output.display) }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .copied)
        result.width = check.width
        result.height = check.height
        result.bytes = written.bytes
        result.outputSHA256 = written.sha256
        result.metadata = JPEGMarkerFilter.metadataPresent(in: output)
        return result
    }
}
