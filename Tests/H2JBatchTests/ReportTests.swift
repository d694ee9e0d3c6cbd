import H2JJob
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JContainer
@testable import H2JMetadata
@testable import H2JSupport

@Suite("Report and summary text")
struct ReportTests {
    @Test("JSON strings escape quotes, backslashes and control characters")
    func quoting() {
        #expect(JSONValue.quote("a\"b\\c\nd\u{1}é") == "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }

    /// The test process's working directory: report paths are absolute.
    var cwd: String { Path.absolute(".") }

    @Test("A result line has every documented field, in order, with absolute paths")
    func resultLine() {
        var result = ConversionResult(source: "in/a.heic", output: "out/a.jpg", status: .converted)
        result.width = 4
        result.height = 3
        result.bytes = 1234
        result.metadata = .init(exif: true, xmp: false, icc: true)
        result.warnings = [Warning(.exifTrimmed, "EXIF trimmed")]
        result.milliseconds = 7
        #expect(Reporter.json(result) == #"{"source":"\#(cwd)/in/a.heic","output":"\#(cwd)/out/a.jpg","sourceSize":null,"sourceMtime":null,"sourceSHA256":null,"outputSHA256":null,"status":"converted","reason":null,"errorCode":null,"width":4,"height":3,"bytes":1234,"engine":null,"engineReason":null,"decoder":null,"hdr":null,"metadata":{"exif":true,"xmp":false,"icc":true},"warnings":["EXIF trimmed"],"warningCodes":["exif-trimmed"],"handOff":null,"ms":7}"#)
    }

    @Test("The source's size, time (UTC, to the nanosecond) and digests are in the line; - and pseudo-sources stay as they are")
    func sourceFacts() {
        var result = ConversionResult(source: "/a/b.heic", output: "-", status: .converted)
        result.sourceSize = 39139
        result.sourceMtimeNanoseconds = 1_715_955_789_000_000_042
        result.sourceSHA256 = String(repeating: "ab", count: 32)
        result.outputSHA256 = String(repeating: "cd", count: 32)
        let line = Reporter.json(result)
        #expect(line.hasPrefix(#"{"source":"/a/b.heic","output":"-","sourceSize":39139,"sourceMtime":"2024-05-17T14:23:09.000000042Z","sourceSHA256":"\#(String(repeating: "ab", count: 32))","outputSHA256":"\#(String(repeating: "cd", count: 32))","status":"converted""#))
        #expect(Reporter.json(.failed(source: "--report", output: nil, .reportUnwritable, "x")).hasPrefix(#"{"source":"--report","output":null"#))
        #expect(POSIX.utcTime(nanoseconds: -1) == "1969-12-31T23:59:59.999999999Z")
    }

    @Test("A failed result carries its error code")
    func failedLine() {
        let result = ConversionResult.failed(source: "a.heic", output: "a.jpg", PipelineError(.parse, HEIFError.truncatedBox("file")))
        #expect(result.reason == "'file' box is truncated")
        #expect(Reporter.json(result).contains(#""status":"failed","reason":"'file' box is truncated","errorCode":"truncated""#))
    }

    @Test("The summary line counts every status and the rate")
    func summary() {
        var s = RunSummary()
        [.converted, .converted, .copied, .skipped, .failed].forEach { s.count($0) }
        s.seconds = 1.5
        #expect(s.line == "heic2jpg: 2 converted, 1 copied, 1 skipped, 1 failed in 1.50 s (2.00 images/s)")
        #expect(Reporter.json(s) == #"{"summary":true,"converted":2,"updated":0,"copied":1,"skipped":1,"planned":0,"failed":1,"missingSources":0,"kept":0,"seconds":1.5,"imagesPerSecond":2.0,"tempFilesRemoved":0,"stoppedBy":null,"cannotStart":null,"interruptedBy":null,"decoderReason":null}"#)
        s.kept = 2
        #expect(s.line.hasPrefix("heic2jpg: 2 converted, 1 copied, 1 skipped, 1 failed, 2 kept (not handed off) in 1.50 s"))
        s.stoppedBy = "in/a.heic: No space left on device"
        #expect(s.line.hasSuffix("\nheic2jpg: stopped before the end, files not started were left for a rerun: in/a.heic: No space left on device"))
        #expect(Reporter.json(s).hasSuffix(#""stoppedBy":"in/a.heic: No space left on device","cannotStart":null,"interruptedBy":null,"decoderReason":null}"#))
    }

    @Test("The first result whose code means a resource ran out stops the run; the summary names it")
    func stopOnExhaustion() {
        let reporter = Reporter(verbosity: .quiet, report: nil)
        reporter.record(.failed(source: "a.heic", output: nil, .truncated, "cut short"))
        #expect(reporter.stoppedBy == nil)
        reporter.record(.failed(source: "b.heic", output: "b.jpg", .diskFull, "No space left on device"))
        reporter.record(.failed(source: "c.heic", output: "c.jpg", .outOfResources, "Too many open files"))
        #expect(reporter.stoppedBy == "b.heic: No space left on device")
        #expect(reporter.finish().stoppedBy == "b.heic: No space left on device")
    }

    @Test("Per-file lines: failures always; warnings only when verbose (otherwise tallied)")
    func messages() {
        var failed = ConversionResult(source: "x.heic", output: nil, status: .failed, reason: "bad box")
        #expect(Reporter.message(for: failed, verbosity: .quiet) == "error: x.heic: bad box")
        failed.status = .converted
        failed.reason = nil
        failed.warnings = [Warning(.exifTrimmed, "w")]
        #expect(Reporter.message(for: failed, verbosity: .quiet) == nil)
        #expect(Reporter.message(for: failed, verbosity: .normal) == nil)
        #expect(Reporter.message(for: failed, verbosity: .verbose) == "converted: x.heic\nwarning: x.heic: w")
    }
}
