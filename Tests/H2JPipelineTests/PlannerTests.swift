import Foundation
import H2JTestSupport
import Testing
@testable import H2JPipeline

@Suite("Planning: content decides, outputs are never clobbered")
struct PlannerTests {
    func plans(_ dir: TemporaryDirectory, options: ConversionOptions = ConversionOptions(), output: String? = nil) -> [Plan] {
        let planner = Planner(options: options, publisher: OutputPublisher())
        return InputWalker(inputs: [dir.path + "/in"], outputRoot: output.map { dir.path + "/" + $0 })
            .compactMap { try? $0.get() }
            .map { planner.plan($0) }
    }

    func statusAndReason(_ plan: Plan) -> (ConversionResult.Status, String?)? {
        guard case .done(let result) = plan else { return nil }
        return (result.status, result.reason)
    }

    @Test("HEIF content converts whatever its name; JPEG named .heic is copied")
    func byContent() {
        let dir = TemporaryDirectory()
        dir.file("in/a.dat", TemporaryDirectory.heif)
        dir.file("in/b.heic", TemporaryDirectory.jpeg)
        let result = plans(dir, output: "out")
        #expect(result.count == 2)
        guard case .job(let first) = result[0], case .job(let second) = result[1] else { Issue.record("expected jobs"); return }
        #expect(first.action == .convert && first.output == .path(dir.path + "/out/a.jpg"))
        #expect(second.action == .copy && second.output == .path(dir.path + "/out/b.jpg"))
    }

    @Test("Misnamed content fails with what it looks like; other files are ignored")
    func misnamed() {
        let dir = TemporaryDirectory()
        dir.file("in/fake.heic", TemporaryDirectory.png)
        dir.file("in/empty.HEIF", [])
        dir.file("in/notes.txt", Array("hello".utf8))
        dir.file("in/picture.png", TemporaryDirectory.png)
        let result = plans(dir, output: "out").compactMap(statusAndReason)
        #expect(result.count == 2)
        #expect(result[0] == (.failed, "not a HEIF image: looks like an empty file"))
        #expect(result[1] == (.failed, "not a HEIF image: looks like PNG"))
    }

    @Test("An explicit non-HEIF file is an error, not ignored")
    func explicitFile() {
        let dir = TemporaryDirectory()
        let file = dir.file("notes.txt", Array("hello".utf8))
        let plan = Planner(options: ConversionOptions(), publisher: OutputPublisher()).plan(Candidate(path: file, outputStem: dir.path + "/notes", explicit: true))
        #expect(statusAndReason(plan)! == (.failed, "not a HEIF image: looks like unknown data"))
    }

    @Test("Two inputs for one output: the second waits on the first's claim")
    func collision() {
        let dir = TemporaryDirectory()
        dir.file("in/a.HEIF", TemporaryDirectory.heif)
        dir.file("in/a.heic", TemporaryDirectory.heif)
        let result = plans(dir, output: "out")
        guard case .job(let first) = result[0], case .job(let second) = result[1] else { Issue.record("expected jobs"); return }
        #expect(first.reservation?.previous == nil)
        #expect(second.reservation?.previous === first.reservation)
        #expect(second.reservation?.owner == dir.path + "/in/a.HEIF")
    }

    @Test("A collision on an existing output fails the second input at once")
    func collisionWithExistingOutput() {
        let dir = TemporaryDirectory()
        dir.file("in/a.HEIF", TemporaryDirectory.heif)
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("out/a.jpg", TemporaryDirectory.jpeg)
        let result = plans(dir, output: "out").compactMap(statusAndReason)
        #expect(result.count == 2)
        #expect(result[0].0 == .skipped)
        #expect(result[1] == (.failed, "output \(dir.path)/out/a.jpg is already the output of \(dir.path)/in/a.HEIF in this run; rename one of them"))
    }

    @Test("Existing outputs are skipped; --overwrite replaces them, but never HEIF data")
    func existing() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/b.heic", TemporaryDirectory.heif)
        dir.file("out/a.jpg", TemporaryDirectory.jpeg)
        dir.file("out/b.jpg", TemporaryDirectory.heif)
        let skipped = plans(dir, output: "out").compactMap(statusAndReason)
        #expect(skipped.map(\.0) == [.skipped, .skipped])
        var options = ConversionOptions()
        options.overwrite = true
        let overwriting = plans(dir, options: options, output: "out")
        guard case .job = overwriting[0] else { Issue.record("a.jpg should be overwritten"); return }
        #expect(statusAndReason(overwriting[1])! == (.failed, "output \(dir.path)/out/b.jpg exists and holds HEIF data; refusing to overwrite what may be a source"))
    }

    @Test("HEIF content named .jpg would be its own output: refused")
    func ownOutput() {
        let dir = TemporaryDirectory()
        dir.file("in/photo.jpg", TemporaryDirectory.heif)
        var options = ConversionOptions()
        options.overwrite = true
        let result = plans(dir, options: options).compactMap(statusAndReason)
        #expect(result.count == 1)
        #expect(result[0] == (.failed, "output would overwrite the source itself; use --output to write elsewhere"))
    }

    @Test("Dry run plans without writing")
    func dryRun() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        var options = ConversionOptions()
        options.dryRun = true
        #expect(plans(dir, options: options, output: "out").compactMap(statusAndReason).map(\.0) == [.planned])
        #expect(!dir.exists("out"))
    }
}
