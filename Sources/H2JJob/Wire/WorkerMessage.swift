#if canImport(Glibc)
import Glibc
#endif
import H2JJPEG
import H2JMetadata
import H2JOutputPlan
import H2JSupport

/// What the parent and a worker process say to each other over the worker's socket,
/// one length-prefixed frame each (`WorkerSocket`).
///
/// A job goes: parent `job` → worker `stage`… → for each output (the primary's, then with
/// `--images all` each other image's): worker `ready` naming it → parent `output` with
/// a temp file's descriptor (or `abandon`, when the parent could not create one) →
/// worker `written` once the file is complete (or `dropped` when its image failed and
/// the job goes on) → worker `stage`…; and last, worker
/// `result`. The parent publishes the temp files only after a successful result, all
/// of them, and removes them otherwise.
package enum WorkerMessage {
    /// Parent → worker: convert or copy this.
    case job(WorkerJob)
    /// Worker → parent: a stage starts (the engine, once chosen; the image item, when the
    /// stage is for an image whose failure the source survives: not the primary's output).
    case stage(PipelineError.Stage, ConversionResult.Engine?, image: UInt32?)
    /// Worker → parent: the pixels of output `name` are ready; send its descriptor.
    /// Only the name: the times, bits, owner and directory an output takes from its
    /// source come from the parent's own `fstat` of the file it opened, never from a
    /// worker, which may have been taken over.
    case ready(OutputName)
    /// Worker → parent: the output last handed over is written in full.
    case written
    /// Worker → parent: the output last handed over was not written (its image failed,
    /// and the job goes on without it): the parent removes it.
    case dropped
    /// Parent → worker: write to the descriptor that comes with this frame.
    case output
    /// Parent → worker: there is no output to write to; fail the job.
    case abandon
    /// Worker → parent: how the job ended.
    case result(ConversionResult)
    /// Parent → worker (`compare`): measure these JPEGs against the job's source
    /// (`LumaMeasurement`), with `pictures` also make `ComparisonPictures`; answered by `measured`.
    case measure(WorkerJob, [(name: String, jpeg: [UInt8])], pictures: Bool)
    /// Worker → parent: the measurement, or why it failed.
    case measured(Result<LumaMeasurement, CompareError>)
    /// Parent → worker (the hand-off): decode in full the published JPEG whose descriptor,
    /// opened by the parent, comes with this frame; answered by `checked`.
    case check
    /// Worker → parent: what the check found.
    case checked(OutputCheck)

    private enum Tag: UInt8 {
        case job = 1, stage, ready, output, abandon, result, written, dropped, measure, measured, check, checked
    }

    package func encoded() -> [UInt8] {
        var out = WireWriter()
        switch self {
        case .job(let job):
            out.u8(Tag.job.rawValue)
            job.encode(to: &out)
        case .stage(let stage, let engine, let image):
            out.u8(Tag.stage.rawValue)
            out.string(stage.rawValue)
            out.optional(engine) { $0.string($1.rawValue) }
            out.optional(image) { $0.int(Int($1)) }
        case .ready(let name):
            out.u8(Tag.ready.rawValue)
            out.string(name.suffix)
        case .written:
            out.u8(Tag.written.rawValue)
        case .dropped:
            out.u8(Tag.dropped.rawValue)
        case .output:
            out.u8(Tag.output.rawValue)
        case .abandon:
            out.u8(Tag.abandon.rawValue)
        case .result(let result):
            out.u8(Tag.result.rawValue)
            result.encode(to: &out)
        case .measure(let job, let outputs, let pictures):
            out.u8(Tag.measure.rawValue)
            job.encode(to: &out)
            MeasuredOutputs.encode(outputs, pictures: pictures, to: &out)
        case .measured(let measurement):
            out.u8(Tag.measured.rawValue)
            measurement.encode(to: &out)
        case .check:
            out.u8(Tag.check.rawValue)
        case .checked(let check):
            out.u8(Tag.checked.rawValue)
            check.encode(to: &out)
        }
        return out.bytes
    }

    package static func decode(_ bytes: [UInt8]) throws(WireError) -> WorkerMessage {
        var reader = WireReader(bytes)
        let raw = try reader.u8()
        guard let tag = Tag(rawValue: raw) else { throw WireError(reason: "unknown message tag \(raw)") }
        let message: WorkerMessage
        switch tag {
        case .job: message = .job(try WorkerJob(from: &reader))
        case .stage:
            message = .stage(try reader.value(PipelineError.Stage.self),
                             try reader.optional { (r: inout WireReader) throws(WireError) in try r.value(ConversionResult.Engine.self) },
                             image: try reader.optional { (r: inout WireReader) throws(WireError) in try r.item() })
        case .ready:
            message = .ready(try OutputName(from: &reader))
        case .written: message = .written
        case .dropped: message = .dropped
        case .output: message = .output
        case .abandon: message = .abandon
        case .result: message = .result(try ConversionResult(from: &reader))
        case .measure:
            let job = try WorkerJob(from: &reader)
            let (outputs, pictures) = try MeasuredOutputs.decode(from: &reader)
            message = .measure(job, outputs, pictures: pictures)
        case .measured: message = .measured(try Result(from: &reader))
        case .check: message = .check
        case .checked: message = .checked(try OutputCheck(from: &reader))
        }
        guard reader.isAtEnd else { throw WireError(reason: "bytes after the \(tag) message") }
        return message
    }
}

/// A job as a worker runs it: no reservation (claims live in the parent), the source's
/// path (for messages and the mark) with its descriptor attached to the frame, or, for
/// stdin, its bytes; the settings that shape the output.
package struct WorkerJob {
    /// Most images one source may lose to worker deaths before it fails as a whole: each
    /// costs a conversion of the source again, so a file of many hostile images cannot
    /// hold a worker for long.
    package static let maxOmittedImages = 8
    /// Most parts a `{n}` template's names are split into (`NumberedNames`): a name is at
    /// most 255 bytes, so `{n}` fits in it fewer times than this.
    package static let maxNameParts = 256

    package let job: ConversionJob
    package let options: ConversionOptions

    package init(job: ConversionJob, options: ConversionOptions) {
        self.job = job
        self.options = options
    }

    package func encode(to out: inout WireWriter) {
        out.string(job.action.rawValue)
        out.optional(job.source.pathValue) { $0.string($1) }
        out.optional(job.bytes) { $0.data($1) }
        out.optional(job.output.pathValue) { $0.string($1) }
        out.optional(job.numbered?.parts) { out, parts in
            out.int(parts.count)
            parts.forEach { out.string($0) }
        }
        options.encode(to: &out)
        out.int(job.omittedImages.count)
        for image in job.omittedImages {
            out.int(Int(image.item))
            out.string(image.reason)
        }
        out.optional(job.sourceSHA256) { $0.string($1) }
    }

    package init(from reader: inout WireReader) throws(WireError) {
        let action = try reader.value(ConversionJob.Action.self)
        let source = try reader.optional { (r: inout WireReader) throws(WireError) in try r.string() }
        let bytes = try reader.optional { (r: inout WireReader) throws(WireError) in try r.data() }
        let output = try reader.optional { (r: inout WireReader) throws(WireError) in try r.string() }
        let numbered = try reader.optional { (r: inout WireReader) throws(WireError) -> NumberedNames in
            let count = try r.int()
            guard (2...Self.maxNameParts).contains(count) else { throw WireError(reason: "\(count) parts of a numbered name") }
            return NumberedNames(parts: try (0..<count).map { _ throws(WireError) in try r.string() })
        }
        let options = try ConversionOptions(from: &reader)
        var job = ConversionJob(source: source.map(Endpoint.path) ?? .standardStream, output: output.map(Endpoint.path) ?? .standardStream,
                      numbered: numbered, action: action, bytes: bytes)
        let omitted = try reader.int()
        guard (0...Self.maxOmittedImages).contains(omitted) else { throw WireError(reason: "\(omitted) images omitted") }
        for _ in 0..<omitted { job = job.omitting(OmittedImage(item: try reader.item(), reason: try reader.string())) }
        let digest = try reader.optional { (r: inout WireReader) throws(WireError) in try r.string() }
        guard digest.map(Hex.isSHA256) ?? true else {
            throw WireError(reason: "a source SHA-256 that is not 64 hex digits")
        }
        self.job = job.digested(digest)
        self.options = options
    }

    /// The job with its source file: `descriptor`, which came with the frame, for a path
    /// (the worker opens nothing itself); none for stdin. Closes a descriptor it does not
    /// take.
    package func job(adopting descriptor: Int32?) throws(WireError) -> ConversionJob {
        guard case .path(let path) = job.source else {
            if let descriptor { close(descriptor) }
            return job
        }
        guard let descriptor else { throw WireError(reason: "a job without its source's descriptor") }
        guard let file = try? SourceFile(adopting: descriptor, path: path) else {
            throw WireError(reason: "a source descriptor that cannot be read")
        }
        return job.reading(file)
    }
}

extension Endpoint {
    /// The path, nil for a standard stream.
    package var pathValue: String? {
        if case .path(let path) = self { path } else { nil }
    }
}

extension ConversionResult {
    package func encode(to out: inout WireWriter) {
        out.string(source)
        out.optional(output) { $0.string($1) }
        out.string(status.rawValue)
        out.optional(reason) { $0.string($1) }
        out.optional(errorCode) { $0.string($1.rawValue) }
        out.optional(width) { $0.int($1) }
        out.optional(height) { $0.int($1) }
        out.optional(bytes) { $0.int($1) }
        out.bool(metadata.exif)
        out.bool(metadata.xmp)
        out.bool(metadata.icc)
        out.int(warnings.count)
        for warning in warnings {
            out.string(warning.code.rawValue)
            out.string(warning.message)
        }
        out.optional(engine) { $0.string($1.rawValue) }
        out.optional(engineReason) { $0.string($1) }
        out.int(notCarried.count)
        notCarried.forEach { out.string($0) }
        out.int(leftOut.count)
        leftOut.forEach { out.string($0) }
        out.optional(hdr) { $0.string($1) }
        out.int(outputs.count)
        for file in outputs {
            out.string(file.name.suffix)
            out.string(file.path)
            out.int(Int(file.item))
            out.int(file.width)
            out.int(file.height)
            out.int(file.bytes)
        }
    }

    package init(from reader: inout WireReader) throws(WireError) {
        let string = { (r: inout WireReader) throws(WireError) in try r.string() }
        let int = { (r: inout WireReader) throws(WireError) in try r.int() }
        self.init(source: try reader.string(), output: try reader.optional(string), status: try reader.value(Status.self),
                  reason: try reader.optional(string),
                  errorCode: try reader.optional { (r: inout WireReader) throws(WireError) in try r.value(ErrorCode.self) })
        width = try reader.optional(int)
        height = try reader.optional(int)
        bytes = try reader.optional(int)
        metadata = MetadataKept(exif: try reader.bool(), xmp: try reader.bool(), icc: try reader.bool())
        let count = try reader.int()
        guard (0...10_000).contains(count) else { throw WireError(reason: "\(count) warnings") }
        warnings = try (0..<count).map { _ throws(WireError) in Warning(Warning.Code(try reader.string()), try reader.string()) }
        engine = try reader.optional { (r: inout WireReader) throws(WireError) in try r.value(Engine.self) }
        engineReason = try reader.optional(string)
        let parts = try reader.int()
        guard (0...100).contains(parts) else { throw WireError(reason: "\(parts) parts not carried") }
        notCarried = try (0..<parts).map { _ throws(WireError) in try reader.string() }
        let excluded = try reader.int()
        guard (0...100).contains(excluded) else { throw WireError(reason: "\(excluded) parts left out") }
        leftOut = try (0..<excluded).map { _ throws(WireError) in try reader.string() }
        hdr = try reader.optional(string)
        let files = try reader.int()
        guard (0...Self.maxOutputs).contains(files) else { throw WireError(reason: "\(files) outputs") }
        outputs = try (0..<files).map { _ throws(WireError) in
            let name = try OutputName(from: &reader), path = try reader.string()
            let item = try reader.int(), width = try reader.int(), height = try reader.int(), bytes = try reader.int()
            guard let item = UInt32(exactly: item), width >= 0, height >= 0, bytes >= 0 else {
                throw WireError(reason: "an output out of range")
            }
            return OutputFile(name: name, path: path, item: item, width: width, height: height, bytes: bytes)
        }
    }

    /// Most outputs one source may have.
    package static let maxOutputs = 4096
}

extension WireReader {
    /// An image item ID (32 bits).
    package mutating func item() throws(WireError) -> UInt32 {
        let value = try int()
        guard let item = UInt32(exactly: value) else { throw WireError(reason: "item \(value) out of range") }
        return item
    }
}

extension OutputName {
    package init(from reader: inout WireReader) throws(WireError) {
        let suffix = try reader.string()
        guard let name = OutputName(checking: suffix) else { throw WireError(reason: "an output name suffix that is not allowed") }
        self = name
    }
}
