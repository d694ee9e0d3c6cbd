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
    /// Where an output of `-` goes: the process's stdout, or for `compare` an unlinked
    /// temporary file (`MemoryOutputFile`) that is read back into memory.
    package let standardOutput: Int32
    /// The tile engine's decoders, shared by every file the converter runs.
    let decoders: TileDecoderPool
    /// Publishes every path output of the run.
    let publisher: OutputPublisher

    init(options: ConversionOptions, decoders: TileDecoderPool, publisher: OutputPublisher,
         standardOutput: Int32 = STDOUT_FILENO) {
        self.options = options
        self.decoders = decoders
        self.publisher = publisher
        self.standardOutput = standardOutput
    }

    package func run(_ job: Job) -> ConversionResult {
        let started = POSIX.monotonicSeconds()
        var result: ConversionResult
        var engine: ConversionResult.Engine?
        do {
            switch job.action {
            case .convert: result = try convert(job, engine: &engine)
            case .copy: result = try PipelineError.at(.copy) { try copy(job) }
            }
        } catch {
            result = .failed(source: job.source.display, output: job.output.display, error)
            result.engine = engine
        }
        job.reservation?.settle(published: result.status == .converted || result.status == .copied)
        result.milliseconds = Int((POSIX.monotonicSeconds() - started) * 1000)
        return result
    }

    // MARK: - Convert

    /// The stages, in order: open → parse (structure, item, integrity) → choose the
    /// engine → check the pixel limit on the upright size → graft → decode → write.
    /// Nothing is decoded before the limit check, and no output is opened before the
    /// decode (libheif) has succeeded.
    /// `engineUsed` is set once the engine is chosen, so a failure's report names it.
    private func convert(_ job: Job, engine engineUsed: inout ConversionResult.Engine?) throws(PipelineError) -> ConversionResult {
        let context = try PipelineError.at(.parse) { try parse(job) }
        // `source` reads through the file's descriptor; keep the file (which closes it
        // on deinit) alive until every tile has been read.
        defer { withExtendedLifetime(context.file) {} }
        var (engine, refusal) = try PipelineError.at(.engine) { try ConversionEngines.choose(context, decoders: decoders) }
        engineUsed = engine.kind
        try PipelineError.at(.limit) { try checkLimit(width: engine.width, height: engine.height) }
        let graft = try PipelineError.at(.graft) { try MetadataGraft(context, engine: engine) }
        try PipelineError.at(.decode) { try engine.decode() }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
        result.bytes = try PipelineError.at(.write) { try write(job, attributes: context.file.map(OutputAttributes.init)) { fd in
            let writer = try JPEGWriter(fd: fd)
            try engine.start(writer, quality: options.quality)
            try graft.writeSegments(to: writer)
            try engine.writePixels(to: writer)
            try writer.finish()
            try graft.writeTrailer(to: fd, path: job.output.display)
        } }
        result.engine = engine.kind
        result.engineReason = refusal
        result.width = engine.width
        result.height = engine.height
        result.metadata = graft.kept
        result.warnings = context.structure.declaredSizeWarnings(from: context.source) + engine.warnings + graft.warnings
        return result
    }

    /// Opens the source and reads its container: the primary must be usable, its
    /// derivation sound (`checkDerivation`: what would reach libheif's weak spots), and
    /// every item's data must lie inside the file (a file cut short is refused here,
    /// before either engine sees it).
    private func parse(_ job: Job) throws -> ConversionContext {
        var file: SourceFile?
        let source: ByteSource
        switch job.source {
        case .path(let path):
            let opened = try SourceFile(path: path)
            file = opened
            source = opened.byteSource
        case .standardStream:
            source = MemoryByteSource(job.bytes ?? [])
        }
        let structure = try HEIFStructure.read(from: source)
        let item = try structure.primaryImage()
        try structure.checkItemsInFile(size: source.size)
        try structure.checkDerivation(from: source, maxPixels: options.maxPixels)
        return ConversionContext(job: job, options: options, source: source, file: file, structure: structure, item: item)
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
        let written = try write(job, attributes: attributes) { fd in try POSIX.writeAll(output, to: fd, path: job.output.display) }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .copied)
        result.width = check.width
        result.height = check.height
        result.bytes = written
        result.metadata = JPEGMarkerFilter.metadataPresent(in: output)
        return result
    }

    // MARK: - Output

    /// Writes through `body` to the job's output: published by the run's publisher for a
    /// path (atomically, after the claims before this job's), staged in a temp file and
    /// then copied to `standardOutput` for `-` (`StagedStreamWriter`). Returns the size.
    private func write(_ job: Job, attributes: OutputAttributes?,
                       _ body: (Int32) throws -> Void) throws -> Int {
        switch job.output {
        case .path(let path):
            return try publisher.write(path, for: job.source.display, reservation: job.reservation,
                                         replacing: job.replacesExisting, attributes: attributes, body)
        case .standardStream:
            return try StagedStreamWriter.write(to: standardOutput, body)
        }
    }
}
