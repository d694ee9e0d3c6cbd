import Foundation
import H2JJob
import Testing
@testable import H2JBatch
@testable import H2JConvert
@testable import H2JOutputPlan
@testable import H2JSupport
import H2JTestSupport

/// What the parent publishes is what it staged: a worker's result names no file the
/// parent did not hand it.
@Suite("Job outputs: the worker's list of outputs is checked against what was staged")
struct JobOutputsTests {
    static func staged(_ dir: TemporaryDirectory) throws -> (JobOutputs, Job) {
        let job = Job(source: .path(dir.sub("in.heic")), output: .path(dir.sub("out/in.jpg")), action: .convert)
        let outputs = JobOutputs(destination: PublishedOutput(publisher: OutputPublisher()), job: job, options: ConversionOptions())
        try outputs.stage(.primary, attributes: nil) { fd in try POSIX.writeAll([0xFF, 0xD8, 0xFF, 0xD9], to: fd, path: "primary") }
        return (outputs, job)
    }

    @Test("A result listing an output that was never staged (a path of its choosing), or one twice, publishes nothing")
    func unstagedOutputRefused() throws {
        for listed: [OutputName] in [[.primary, .image(2)], [.primary, .primary]] {
            let dir = TemporaryDirectory()
            let (outputs, job) = try Self.staged(dir)
            var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
            result.outputs = listed.map { OutputFile(name: $0, path: "/etc/passwd", item: 1, width: 1, height: 1, bytes: 4) }
            #expect(throws: WriteError.self) { try outputs.publishAll(into: &result) }
            outputs.discardAll()
            #expect(!dir.exists("out/in.jpg"), "\(listed): nothing published")
        }
    }

    @Test("A result listing what was staged publishes it, with the parent's path")
    func stagedOutputPublished() throws {
        let dir = TemporaryDirectory()
        let (outputs, job) = try Self.staged(dir)
        var result = ConversionResult(source: job.source.display, output: job.output.display, status: .converted)
        result.outputs = [OutputFile(name: .primary, path: "/etc/passwd", item: 1, width: 1, height: 1, bytes: 4)]
        try outputs.publishAll(into: &result)
        #expect(result.outputs.map(\.path) == [dir.sub("out/in.jpg")] && dir.exists("out/in.jpg"))
    }
}
