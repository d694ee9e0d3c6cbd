import Foundation
import Glibc
import H2JJob
import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
import H2JOutputPlan
@testable import H2JBatch
@testable import H2JWorker
@testable import H2JConvert
@testable import H2JSupport

/// The messages between the parent and its workers: what goes in comes out, and bytes
/// from a worker that may have been taken over never trap the parent.
@Suite("Worker messages: encoding, and hostile bytes")
struct WorkerWireTests {
    static var sampleJob: WorkerJob {
        var options = ConversionOptions()
        options.quality = 77
        (options.progressive, options.optimize, options.sampling) = (true, true, .s444)
        options.metadata = .strip
        options.stripGPS = true
        options.mark = false
        options.background = RGBColor(red: 1, green: 2, blue: 3)
        options.maxPixels = 12_345_678
        options.decodingThreads = 3
        options.images = .primary
        return WorkerJob(job: ConversionJob(source: .path("in/caf\u{E9}.heic"), output: .path("out/caf\u{E9}.jpg"), action: .convert),
                         options: options)
    }

    static var sampleResult: ConversionResult {
        var result = ConversionResult(source: "in/a.heic", output: "out/a.jpg", status: .converted)
        result.width = 4032
        result.height = 3024
        result.bytes = 1_234_567
        result.metadata = MetadataKept(exif: true, xmp: false, icc: true)
        result.warnings = [Warning(Warning.Code("auxiliary-dropped"), "depth map dropped"), Warning(Warning.Code("x"), "")]
        result.engine = .libheif
        result.engineReason = "grid of 4:2:2 tiles"
        result.outputs = [OutputFile(name: .primary, path: "out/a.jpg", item: 1, width: 4032, height: 3024, bytes: 1_234_567),
                          OutputFile(name: .image(2), path: "out/a-2.jpg", item: 7, width: 640, height: 480, bytes: 9)]
        return result
    }

    static func roundTrip(_ message: WorkerMessage) throws -> WorkerMessage {
        try WorkerMessage.decode(message.encoded())
    }

    @Test("A job keeps its source, output, action and every option that shapes the output")
    func jobRoundTrip() throws {
        guard case .job(let decoded) = try Self.roundTrip(.job(Self.sampleJob)) else { Issue.record("not a job"); return }
        #expect(decoded.job == Self.sampleJob.job)
        #expect(decoded.options == Self.sampleJob.options)
        let stdin = WorkerJob(job: ConversionJob(source: .standardStream, output: .standardStream, action: .copy, bytes: [0xFF, 0xD8, 0]),
                              options: ConversionOptions())
        guard case .job(let fromStdin) = try Self.roundTrip(.job(stdin)) else { Issue.record("not a job"); return }
        #expect(fromStdin.job == stdin.job)
        let omitting = WorkerJob(job: Self.sampleJob.job.omitting(OmittedImage(item: 4, reason: "decoder crashed: SIGSEGV"))
                                     .omitting(OmittedImage(item: 90_000, reason: "timed out")), options: ConversionOptions())
        guard case .job(let decodedOmitting) = try Self.roundTrip(.job(omitting)) else { Issue.record("not a job"); return }
        #expect(decodedOmitting.job.omittedImages.map(\.item) == [4, 90_000])
        #expect(decodedOmitting.job == omitting.job)
        let numbered = WorkerJob(job: ConversionJob(source: .path("a.heic"), output: .path("o/a_1.jpg"),
                                                    numbered: NumberedNames(parts: ["a_", "", ""]), action: .convert),
                                 options: ConversionOptions())
        guard case .job(let decodedNumbered) = try Self.roundTrip(.job(numbered)) else { Issue.record("not a job"); return }
        #expect(decodedNumbered.job.numbered?.parts == ["a_", "", ""] && decodedNumbered.job.path(of: .image(2)) == "o/a_22.jpg")
    }

    @Test("The source's SHA-256 goes from the parent to the worker, 64 hex digits or refused; no result carries one back")
    func sourceDigestOneWay() throws {
        let digest = String(repeating: "0123456789abcdef", count: 4)
        let digested = WorkerJob(job: Self.sampleJob.job.digested(digest), options: ConversionOptions())
        guard case .job(let decoded) = try Self.roundTrip(.job(digested)) else { Issue.record("not a job"); return }
        #expect(decoded.job.sourceSHA256 == digest && decoded.job == digested.job)
        for bad in ["abc", String(repeating: "A", count: 64), String(repeating: "g", count: 64), digest + "0"] {
            let frame = WorkerMessage.job(WorkerJob(job: Self.sampleJob.job.digested(bad), options: ConversionOptions())).encoded()
            #expect(throws: WireError.self, "\(bad)") { try WorkerMessage.decode(frame) }
        }
        var result = Self.sampleResult
        result.sourceSHA256 = digest
        guard case .result(let back) = try Self.roundTrip(.result(result)) else { Issue.record("not a result"); return }
        #expect(back.sourceSHA256 == nil, "the parent hashes the source itself")
    }

    @Test("A worker's job takes its source from the descriptor that came with it, never by path; a path job without one is refused")
    func jobAdoptsItsSource() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.file("a.heic", [1, 2, 3])
        let opened = try SourceFile(path: path)
        let fd = dup(opened.descriptor)
        // The name now holds another file: the worker must still read the one planned.
        try? FileManager.default.removeItem(atPath: path)
        _ = scratch.file("a.heic", [9])
        let job = try WorkerJob(job: ConversionJob(source: .path(path), output: .path(scratch.sub("a.jpg")), action: .convert),
                                options: ConversionOptions()).job(adopting: fd)
        let file = try #require(job.file)
        #expect(file.info.st_ino == opened.info.st_ino && file.size == 3)
        #expect(throws: WireError.self) {
            try WorkerJob(job: ConversionJob(source: .path(path), output: .standardStream, action: .convert), options: ConversionOptions())
                .job(adopting: nil)
        }
        let stdin = try WorkerJob(job: ConversionJob(source: .standardStream, output: .standardStream, action: .copy, bytes: [1]),
                                  options: ConversionOptions()).job(adopting: nil)
        #expect(stdin.file == nil)
    }

    @Test("A result keeps its status, sizes, metadata, warnings and engine; a failure its code")
    func resultRoundTrip() throws {
        guard case .result(let decoded) = try Self.roundTrip(.result(Self.sampleResult)) else { Issue.record("not a result"); return }
        #expect(decoded == Self.sampleResult)
        let failure = ConversionResult.failed(source: "a", output: nil, .truncated, "'ipma' box is truncated")
        guard case .result(let decodedFailure) = try Self.roundTrip(.result(failure)) else { Issue.record("not a result"); return }
        #expect(decodedFailure == failure)
    }

    @Test("Ready carries the output's name only: a frame that adds the source's attributes (mode, owner, directory) is refused")
    func readyRoundTrip() throws {
        guard case .ready(.image(3)) = try Self.roundTrip(.ready(.image(3))) else { Issue.record("not ready"); return }
        guard case .ready(.primary) = try Self.roundTrip(.ready(.primary)) else { Issue.record("not ready(primary)"); return }
        // What a worker of the trusting wire sent: the name, then mode 0o7777 and another owner.
        #expect(throws: WireError.self) { try WorkerMessage.decode(HostileWorker.trustingReady) }
        guard case .written = try Self.roundTrip(.written) else { Issue.record("not written"); return }
        guard case .stage(.write, .tiles?, nil) = try Self.roundTrip(.stage(.write, .tiles, image: nil)) else { Issue.record("not a stage"); return }
        guard case .stage(.decode, .libheif?, 70_000?) = try Self.roundTrip(.stage(.decode, .libheif, image: 70_000)) else {
            Issue.record("not a stage naming its image"); return
        }
    }

    @Test("compare's measure carries the job, each mode's JPEG and the pictures flag; measured the size, decibels (infinity too) and pictures, or the reason")
    func measureRoundTrip() throws {
        let outputs: [(name: String, jpeg: [UInt8])] = [("lossless-metadata", [0xFF, 0xD8, 1]), ("lossy", [])]
        guard case .measure(let work, let decoded, let pictures) = try Self.roundTrip(.measure(Self.sampleJob, outputs, pictures: true)) else {
            Issue.record("not measure"); return
        }
        #expect(work.job == Self.sampleJob.job && work.options == Self.sampleJob.options && pictures)
        #expect(decoded.map(\.name) == ["lossless-metadata", "lossy"] && decoded.map(\.jpeg) == outputs.map(\.jpeg))
        let measurement = LumaMeasurement(width: 512, height: 384, decibels: [41.25, .infinity])
        guard case .measured(.success(let got)) = try Self.roundTrip(.measured(.success(measurement))) else { Issue.record("not measured"); return }
        #expect(got == measurement)
        let output = ComparisonPictures.Output(preview: [0xFF, 0xD8, 2], crop: [3], sourceCrop: [4], heatMap: [5],
                                               cropRect: PictureRect(x: 1, y: 2, width: 3, height: 4), meanDifference: 0.75, maxDifference: 9)
        let pictured = LumaMeasurement(width: 512, height: 384, decibels: [41.25, .infinity],
                                       pictures: ComparisonPictures(source: [0xFF, 0xD8, 1], outputs: [output, output]))
        guard case .measured(.success(let gotPictures)) = try Self.roundTrip(.measured(.success(pictured))) else { Issue.record("not measured"); return }
        #expect(gotPictures == pictured)
        // Pictures for another number of outputs than were measured are refused.
        let mismatched = LumaMeasurement(width: 512, height: 384, decibels: [41.25], pictures: ComparisonPictures(source: [], outputs: [output, output]))
        #expect(throws: WireError.self) { try WorkerMessage.decode(WorkerMessage.measured(.success(mismatched)).encoded()) }
        guard case .measured(.failure(let error)) = try Self.roundTrip(.measured(.failure(CompareError("lossy: Y-PSNR: odd")))) else {
            Issue.record("not a failed measurement"); return
        }
        #expect(error.description == "lossy: Y-PSNR: odd")
        var nan = WireWriter()
        nan.u8(10)
        nan.bool(true)
        for value in [1, 1, 1] { nan.int(value) }
        nan.int(Int(Int64(bitPattern: Double.nan.bitPattern)))
        #expect(throws: WireError.self) { try WorkerMessage.decode(nan.bytes) }
    }

    @Test("An output name that could leave its directory or hide is refused")
    func outputNames() throws {
        for bad in ["/x", "-a/b", "..", "-..", "x", "-", ".", "-\u{E9}", "-a b", String(repeating: "-", count: 25)] {
            #expect(OutputName(checking: bad) == nil, "\(bad)")
            var frame = WireWriter()
            frame.u8(3)
            frame.string(bad)
            frame.u8(0)
            #expect(throws: WireError.self) { try WorkerMessage.decode(frame.bytes) }
        }
        for good in ["", "-2", ".depth", "-left", "-2-1"] { #expect(OutputName(checking: good)?.suffix == good) }
        #expect(OutputName.image(2).path(besides: "out/IMG_1.jpg") == "out/IMG_1-2.jpg")
        #expect(OutputName.image(12).path(besides: "a.b.jpeg") == "a.b-12.jpeg")
        #expect(OutputName.primary.path(besides: "/x/y.jpg") == "/x/y.jpg")
        #expect(OutputName(checking: ".depth")!.path(besides: "/x/.y") == "/x/.y.depth")
    }

    @Test("Every cut, every flipped byte and trailing bytes: an error or a message, never a trap")
    func hostileBytes() {
        let encoded = WorkerMessage.result(Self.sampleResult).encoded()
        for length in 0..<encoded.count {
            #expect(throws: WireError.self) { try WorkerMessage.decode(Array(encoded.prefix(length))) }
        }
        #expect(throws: WireError.self) { try WorkerMessage.decode(encoded + [0]) }
        // The worker's other messages of many fields: a stage naming its image, a measurement with and without pictures.
        let measured = WorkerMessage.measured(.success(LumaMeasurement(width: 4, height: 3, decibels: [40, .infinity]))).encoded()
        let output = ComparisonPictures.Output(preview: [1, 2], crop: [3], sourceCrop: [], heatMap: [4], cropRect: PictureRect(x: 0, y: 0, width: 1, height: 1),
                                               meanDifference: 0.5, maxDifference: 3)
        let pictured = WorkerMessage.measured(.success(LumaMeasurement(width: 4, height: 3, decibels: [40],
                                                                      pictures: ComparisonPictures(source: [9], outputs: [output])))).encoded()
        for other in [WorkerMessage.stage(.decode, .libheif, image: 9).encoded(), measured, pictured] {
            for length in 0..<other.count {
                #expect(throws: WireError.self) { try WorkerMessage.decode(Array(other.prefix(length))) }
            }
            #expect(throws: WireError.self) { try WorkerMessage.decode(other + [0]) }
        }
        var outOfRange = WireWriter()
        outOfRange.u8(2)
        outOfRange.string("decode")
        outOfRange.bool(false)
        outOfRange.bool(true)
        outOfRange.int(1 << 40)
        #expect(throws: WireError.self) { try WorkerMessage.decode(outOfRange.bytes) }
        #expect(throws: WireError.self) { try WorkerMessage.decode([99]) }
        var generator = SeededGenerator(seed: 10)
        for _ in 0..<2000 {
            var mutated = encoded
            let index = Int.random(in: 0..<mutated.count, using: &generator)
            mutated[index] = UInt8.random(in: 0...255, using: &generator)
            _ = try? WorkerMessage.decode(mutated)
        }
        // A huge length must not allocate or trap.
        var huge = WireWriter()
        huge.u8(6)
        huge.int(Int.max)
        #expect(throws: WireError.self) { try WorkerMessage.decode(huge.bytes) }
    }
}

@Suite("Worker limits and the words of a worker's death")
struct WorkerLimitsTests {
    @Test("--max-memory sizes: bytes, K/M/G/T with optional B or iB; nonsense and overflow refused")
    func sizes() {
        #expect(WorkerLimits.parseSize("1048576") == 1 << 20)
        #expect(WorkerLimits.parseSize("512M") == 512 << 20)
        #expect(WorkerLimits.parseSize("2g") == 2 << 30)
        #expect(WorkerLimits.parseSize("2GiB") == 2 << 30)
        #expect(WorkerLimits.parseSize("64MB") == 64 << 20)
        #expect(WorkerLimits.parseSize("1T") == 1 << 40)
        for bad in ["", "M", "-1G", "1.5G", "1X", "G1", "99999999999999999999T", "９M"] {
            #expect(WorkerLimits.parseSize(bad) == nil, "\(bad)")
        }
    }

    @Test("The default memory follows the pixel limit; the limits reach the worker unchanged")
    func defaults() {
        #expect(WorkerLimits.defaultMemory(maxPixels: 256_000_000) == 256_000_000 * 8 + (512 << 20))
        #expect(WorkerLimits.defaultMemory(maxPixels: Int.max) == Int.max)
        let limits = WorkerLimits(memoryBytes: 3 << 30, timeoutSeconds: 7, outputBytes: 5 << 30)
        #expect(WorkerLimits(arguments: limits.arguments[...]) == limits)
        #expect(WorkerLimits(arguments: ["x", "1"]) == nil)
        #expect(WorkerLimits(arguments: ["1"]) == nil)
        #expect(WorkerLimits(arguments: ["1", "99999999999999", "1"]) == nil, "a timeout past a day would not fit alarm()")
        #expect(WorkerLimits(arguments: ["1", "1", "0"]) == nil, "no output at all")
    }

    static let limits = WorkerLimits(memoryBytes: 1 << 30)

    static func death(_ cause: WorkerDeath.Cause, _ stage: PipelineError.Stage?, _ engine: ConversionResult.Engine?,
                      _ words: String = "") -> WorkerDeath {
        WorkerDeath(cause: cause, stage: stage, engine: engine, image: nil, lastWords: words, limits: limits)
    }

    @Test("A crash names the signal, the library it was in, and what it last said")
    func crash() {
        let abort = Self.death(.died(WorkerExit(signal: SIGABRT, status: 0, peakBytes: 40 << 20)), .decode, .libheif,
                               "heic2jpg: heif_context.cc:1144: Assertion `imginfo' failed.")
        #expect(abort.code == .decoderCrashed)
        #expect(abort.reason == "decoder crashed: SIGABRT in libheif, decoding; it last said: heic2jpg: heif_context.cc:1144: Assertion `imginfo' failed.")
        let segv = Self.death(.died(WorkerExit(signal: SIGSEGV, status: 0, peakBytes: 1 << 20)), .write, .tiles)
        #expect(segv.reason == "decoder crashed: SIGSEGV in libde265 or libjpeg, decoding tiles into JPEG bands")
        let avcodec = WorkerDeath(cause: .died(WorkerExit(signal: SIGSEGV, status: 0, peakBytes: 1 << 20)), stage: .write,
                                  engine: .tiles, image: nil, lastWords: "",
                                  limits: WorkerLimits(memoryBytes: 1 << 30, decoder: .avcodec))
        #expect(avcodec.reason == "decoder crashed: SIGSEGV in libavcodec or libjpeg, decoding tiles into JPEG bands")
        let exited = Self.death(.died(WorkerExit(signal: nil, status: 3, peakBytes: 1 << 20)), .parse, nil)
        #expect(exited.reason == "decoder exited with status 3 in heic2jpg's container reader")
        let killed = Self.death(.died(WorkerExit(signal: SIGKILL, status: 0, peakBytes: 1 << 20)), .engine, nil)
        #expect(killed.reason.contains("SIGKILL") && killed.reason.contains("out-of-memory killer"))
    }

    @Test("Near the limit, or an allocation that failed, is out-of-memory; SIGINT/SIGTERM an interruption; a timeout its own code")
    func otherCauses() {
        let nearLimit = Self.death(.died(WorkerExit(signal: SIGABRT, status: 0, peakBytes: 900 << 20)), .decode, .libheif)
        #expect(nearLimit.code == .outOfMemory)
        #expect(nearLimit.reason.hasPrefix("decoder ran out of memory in libheif, decoding (--max-memory 1024 MiB, peak 900 MiB)"))
        let thread = Self.death(.died(WorkerExit(signal: SIGABRT, status: 0, peakBytes: 30 << 20)), .decode, .libheif,
                                "what():  Resource temporarily unavailable")
        #expect(thread.code == .outOfMemory)
        let badAlloc = Self.death(.died(WorkerExit(signal: SIGABRT, status: 0, peakBytes: 30 << 20)), .engine, nil,
                                  "terminate called after throwing an instance of 'std::bad_alloc'")
        #expect(badAlloc.code == .outOfMemory)
        let interrupted = Self.death(.died(WorkerExit(signal: SIGTERM, status: 0, peakBytes: 1 << 20)), .decode, .libheif)
        #expect(interrupted.code == .interrupted && interrupted.reason.hasPrefix("interrupted: the decoder got SIGTERM"))
        let slow = Self.death(.timedOut(seconds: 120), .write, .tiles)
        #expect(slow.code == .timedOut)
        #expect(slow.reason == "timed out after 120 s in libde265 or libjpeg, decoding tiles into JPEG bands (--timeout); the decoder was stopped")
        let rogue = Self.death(.misbehaved("malformed worker message: ends early"), nil, nil)
        #expect(rogue.code == .decoderCrashed && rogue.reason.contains("before it started the file"))
    }
}
