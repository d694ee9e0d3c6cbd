import Foundation
import H2JTestSupport
import Testing

/// A run that cannot finish its work says so in its exit code, and a signal always ends it.
@Suite("End to end: resource limits and signals")
struct ResourceLimitsEndToEndTests {
    @Test("A report that reaches `ulimit -f` is an error (exit 75), not a death by SIGXFSZ (153)")
    func reportPastFileSizeLimit() throws {
        let scratch = TemporaryDirectory()
        let report = scratch.sub("r.jsonl")
        // A dry run writes nothing but the report: a dozen lines, beyond one 512-byte block.
        let command = "ulimit -f 1; exec \"$0\" --dry-run --quiet -o \"$1\" --report \"$2\" \"$3\""
        let outcome = try ChildProcess.run("/bin/sh", ["-c", command, Tool.binary, scratch.sub("out"), report, Tool.samples])
        #expect(outcome.status == 75, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("error: --report \(report): File too large"), "\(outcome.stderr)")
    }

    @Test("A --report that cannot be opened stops the run before any work: nothing converted, exit 73")
    func unwritableReport() throws {
        let scratch = TemporaryDirectory()
        let report = scratch.sub("missing-directory/r.jsonl")
        let outcome = try Tool.run(["--report", report, "-o", scratch.sub("out"), Tool.samples])
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(!scratch.files("out").contains { $0.hasSuffix(".jpg") }, "\(scratch.files("out"))")
        #expect(outcome.stderr.contains("cannot open report \(report): No such file or directory; nothing done"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("converted:"), "\(outcome.stderr)")
    }

    @Test("kill -PIPE, and a closed pipe on stdout (--report -, -o -), end the run with 141 and no temp file",
          arguments: ["kill", "report", "jpeg"])
    func brokenPipe(how: String) throws {
        let scratch = TemporaryDirectory()
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/photo-exif-gps-xmp-icc.heic")))
        for index in 0..<300 { scratch.file("in/\(index).heic", photo) }
        // The reader closes its end at once, long before the first JPEG or report line is ready.
        let closedReader = "| (exec 0<&-; sleep 3); exit ${PIPESTATUS[0]}"
        let script: String
        switch how {
        // Signalled once the run is under way (its first JPEG is out), however loaded the machine.
        case "kill": script = "\"$0\" -o \"$1/out\" \"$1/in\" & pid=$!; for i in $(seq 3000); do ls \"$1\"/out/*.jpg >/dev/null 2>&1 && break; sleep 0.01; done; kill -PIPE $pid; wait $pid"
        case "report": script = "\"$0\" --report - -o \"$1/out\" \"$1/in\" " + closedReader
        default: script = "\"$0\" -o - \"$1/in/0.heic\" " + closedReader
        }
        let outcome = try ChildProcess.run("/bin/bash", ["-c", script, Tool.binary, scratch.path])
        #expect(outcome.status == 141, "\(how): \(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted by signal 13"), "\(outcome.stderr)")
        #expect(!scratch.files("out").contains { $0.hasSuffix(".tmp") }, "\(scratch.files("out"))")
    }

    @Test("SIGTERM ends the run even while stderr is a full pipe that nobody reads")
    func terminateWithBlockedStderr() throws {
        let scratch = TemporaryDirectory()
        scratch.file("in/a.heic", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Tool.samples + "/monochrome.heic"))))
        // Fill the pipe first: the run's first line on stderr then blocks.
        let errors = Pipe()
        let writeEnd = errors.fileHandleForWriting.fileDescriptor
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: 0x2E, count: 4096)
        while write(writeEnd, filler, filler.count) > 0 {}
        _ = fcntl(writeEnd, F_SETFL, flags)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.binary)
        process.arguments = ["--verbose", "-o", scratch.sub("out"), scratch.sub("in")]
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Once the output is published, the run is writing its verbose line: blocked.
        for _ in 0..<600 where !scratch.exists("out/a.jpg") { usleep(50_000) }
        #expect(scratch.exists("out/a.jpg"))
        usleep(200_000)
        kill(process.processIdentifier, SIGTERM)
        var waited = 0
        while process.isRunning && waited < 600 {
            usleep(50_000)
            waited += 1
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("SIGTERM did not end the run within 30 s")
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
    }
}
