#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JLibheif
import H2JSupport
import H2JTiles

/// Runs one job to its result: sniffed and planned already, so what is left is
/// parse → decode → encode → graft metadata → write atomically.
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

    init(options: ConversionOptions, decoders: TileDecoderPool, standardOutput: Int32 = STDOUT_FILENO) {
        self.options = options
        self.decoders = decoders
        self.standardOutput = standardOutput
    }

    package func run(_ job: Job) -> ConversionResult {
        let started = POSIX.monotonicSeconds()
        var result: ConversionResult
        do {
            switch job.action {
            case .convert: result = try convert(job)
            case .copy: result = try copy(job)
            }
        } catch {
            result = .failed(job, "\(error)")
        }
        job.claim?.resolve(owned: result.status == .converted || result.status == .copied)
        result.milliseconds = Int((POSIX.monotonicSeconds() - started) * 1000)
        return result
    }

    // MARK: - Convert

    /// Reads the container once, lets `EngineChoice` pick the engine, checks the pixel
    /// limit on the upright size before any decoding, then encodes.
    private func convert(_ job: Job) throws -> ConversionResult {
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
        // `source` reads through the file's descriptor; keep the file (which closes it
        // on deinit) alive until every tile has been read.
        defer { withExtendedLifetime(file) {} }
        let structure = try HEIFStructure.read(from: source)
        let primary = try structure.primaryImage()
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
        let extras = try OutputExtras(job: job, structure: structure, primary: primary.id, source: source, options: options)
        switch try EngineChoice.make(structure, primary: primary, source: source) {
        case .tiles(let image):
            try convertTiles(job, image, structure: structure, primary: primary, source: source, extras: extras,
                             times: file?.times, into: &result)
        case .libheif(let reason):
            try convertWithLibheif(job, structure: structure, primary: primary, extras: extras, times: file?.times, into: &result)
            result.engineReason = reason
        }
        result.warnings += extras.warnings
        return result
    }

    /// The streaming tile engine: raw YCbCr bands straight into libjpeg.
    private func convertTiles(_ job: Job, _ image: TiledImage, structure: HEIFStructure, primary: PrimaryImage,
                              source: ByteSource, extras: OutputExtras, times: FileTimes?, into result: inout ConversionResult) throws {
        let (width, height) = (image.geometry.width, image.geometry.height)
        try checkLimit(width: width, height: height)
        let metadata = try SourceMetadata(structure: structure, primary: primary.id, source: source)
        let markers = JPEGMarkers(source: metadata, mode: options.metadata, stripGPS: options.stripGPS,
                                  mark: extras.mark, width: width, height: height)
        let engine = TileEngine(image: image, structure: structure, source: source, lanes: options.decodingThreads,
                                decoders: decoders)
        result.bytes = try write(job, times: times) { fd in
            let writer = try JPEGWriter(fd: fd)
            try writer.startRaw(width: width, height: height, components: image.monochrome ? 1 : 3, quality: options.quality)
            try markers.write(to: writer)
            try engine.run(into: writer)
            try writer.finish()
            try extras.writeTrailer(to: fd, path: job.output.display)
        }
        result.engine = .tiles
        result.width = width
        result.height = height
        result.metadata = markers.kept
        result.warnings = markers.warnings
    }

    /// libheif's full decode, for everything the tile engine does not take.
    private func convertWithLibheif(_ job: Job, structure: HEIFStructure, primary: PrimaryImage, extras: OutputExtras,
                                    times: FileTimes?, into result: inout ConversionResult) throws {
        let context = LibheifContext(maxDimension: ConversionOptions.maxDimension, decodingThreads: options.decodingThreads)
        switch job.source {
        case .path(let path): try context.read(path: path)
        case .standardStream: try context.read(bytes: job.bytes ?? [])
        }
        let handle = try context.primaryHandle()
        try checkLimit(width: handle.width, height: handle.height)
        let markers = JPEGMarkers(source: SourceMetadata(handle: handle, structure: structure, primary: primary.id), mode: options.metadata,
                                  stripGPS: options.stripGPS, mark: extras.mark,
                                  width: handle.width, height: handle.height)
        let image = try DecodedImage(decoding: handle, monochrome: primary.isMonochrome, background: options.background)
        result.bytes = try write(job, times: times) { fd in
            let writer = try JPEGWriter(fd: fd)
            try writer.start(width: image.width, height: image.height, components: image.components,
                             quality: options.quality, subsampling: .s420)
            try markers.write(to: writer)
            try image.forEachBand { (rows, stride, count) throws(JPEGError) in
                try writer.writeRows(rows, stride: stride, count: count)
            }
            try writer.finish()
            try extras.writeTrailer(to: fd, path: job.output.display)
        }
        result.engine = .libheif
        result.width = image.width
        result.height = image.height
        result.metadata = markers.kept
        result.warnings = image.warnings + markers.warnings
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
        var times: FileTimes?
        let bytes: [UInt8]
        switch job.source {
        case .path(let path):
            let source = try SourceFile(path: path)
            times = source.times
            bytes = try source.readAll()
        case .standardStream:
            bytes = job.bytes ?? []
        }
        let check = JPEGCheck(bytes)
        if let problem = check.problem { throw CorruptJPEGError(reason: problem) }
        let output = options.metadata == .strip ? JPEGMarkerFilter.strippingMetadata(from: bytes) : bytes
        let written = try write(job, times: times) { fd in try POSIX.writeAll(output, to: fd, path: job.output.display) }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .copied)
        result.width = check.width
        result.height = check.height
        result.bytes = written
        result.metadata = JPEGMarkerFilter.metadataPresent(in: output)
        return result
    }

    // MARK: - Output

    /// Writes through `body` to the job's output: atomically for a path, directly to
    /// `standardOutput` for `-`. Before publishing, an earlier claim on the same path is
    /// honoured. Returns the size written to a path; nil for `-`, which cannot be measured.
    private func write(_ job: Job, times: FileTimes?,
                       _ body: (Int32) throws -> Void) throws -> Int? {
        switch job.output {
        case .path(let path):
            return try AtomicFileWriter.write(to: path, times: times, body) {
                if let after = job.after, after.waitOwned() { throw CollisionError(output: path, owner: after.owner) }
            }
        case .standardStream:
            try body(standardOutput)
            return nil
        }
    }
}

/// The decoded size exceeds `maxPixels` (a decompression bomb, or a larger image than allowed).
struct LimitError: Error, CustomStringConvertible {
    let width: Int, height: Int, maxPixels: Int
    var description: String {
        guard width > 0, height > 0 else { return "image is \(width)×\(height): it has no pixels" }
        return "image is \(width)×\(height) (\(width.multipliedReportingOverflow(by: height).partialValue / 1_000_000) MP), over the \(maxPixels / 1_000_000) MP limit"
    }
}

/// JPEG content that does not decode cleanly.
struct CorruptJPEGError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "JPEG content is corrupt: \(reason)" }
}
