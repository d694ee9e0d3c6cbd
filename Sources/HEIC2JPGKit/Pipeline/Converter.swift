#if canImport(Glibc)
import Glibc
#endif

/// Runs one job to its result: sniffed and planned already, so what is left is
/// parse → decode → encode → graft metadata → write atomically.
///
/// Invariant: `run` never throws and never traps on bad input; every failure becomes a
/// `failed` result whose reason names the cause, and leaves no output behind.
public struct Converter: Sendable {
    public let options: ConversionOptions

    public init(options: ConversionOptions) {
        self.options = options
    }

    public func run(_ job: Job) -> ConversionResult {
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

    private func convert(_ job: Job) throws -> ConversionResult {
        let context = LibheifContext(maxDimension: ConversionOptions.maxDimension, decodingThreads: options.decodingThreads)
        let structure: HEIFStructure
        var times: (access: timespec, modification: timespec)?
        switch job.source {
        case .path(let path):
            let source = try SourceFile(path: path)
            times = source.times
            structure = try HEIFStructure.read(from: source.byteSource)
            try context.read(path: path)
        case .standardStream:
            let bytes = job.bytes ?? []
            structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
            try context.read(bytes: bytes)
        }
        let primary = try structure.primaryImage()
        let handle = try context.primaryHandle()
        let (width, height) = (handle.width, handle.height)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= options.maxPixels else {
            throw LimitError(width: width, height: height, maxPixels: options.maxPixels)
        }
        let markers = JPEGMarkers(handle: handle, mode: options.metadata, width: width, height: height)
        let image = try DecodedImage(decoding: handle, monochrome: primary.isMonochrome, background: options.background)
        let encode = { (fd: Int32) throws in
            let writer = try JPEGWriter(fd: fd)
            try writer.start(width: image.width, height: image.height, components: image.components,
                             quality: options.quality, subsampling: options.subsampling)
            try markers.write(to: writer)
            try image.forEachBand { (rows, stride, count) throws(JPEGError) in
                try writer.writeRows(rows, stride: stride, count: count)
            }
            try writer.finish()
        }
        let bytes = try write(job, times: times, encode)
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
        result.width = image.width
        result.height = image.height
        result.bytes = bytes
        result.metadata = markers.kept
        result.warnings = image.warnings + markers.warnings
        return result
    }

    // MARK: - Copy (JPEG content under a HEIF name)

    private func copy(_ job: Job) throws -> ConversionResult {
        var times: (access: timespec, modification: timespec)?
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
        let written = try write(job, times: times) { fd in try POSIX.writeAll(output, to: fd) }
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .copied)
        result.width = check.width
        result.height = check.height
        result.bytes = written
        result.metadata = JPEGMarkerFilter.metadataPresent(in: output)
        return result
    }

    // MARK: - Output

    /// Writes through `body` to the job's output: atomically for a path, directly for
    /// stdout. Before publishing, an earlier claim on the same path is honoured.
    /// Returns the size written to a path; nil for stdout, which cannot be measured.
    private func write(_ job: Job, times: (access: timespec, modification: timespec)?,
                       _ body: (Int32) throws -> Void) throws -> Int? {
        switch job.output {
        case .path(let path):
            return try AtomicFileWriter.write(to: path, times: times, body) {
                if let after = job.after, after.waitOwned() { throw CollisionError(output: path, owner: after.owner) }
            }
        case .standardStream:
            try body(STDOUT_FILENO)
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
