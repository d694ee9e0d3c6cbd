import Foundation
import H2JJob
import H2JTestSupport
import Testing
@testable import H2JBatch
@testable import H2JConvert
import H2JDigest
import H2JOutputPlan
import H2JSupport

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
        let plan = Planner(options: ConversionOptions(), publisher: OutputPublisher()).plan(Candidate(path: file, outputDirectory: dir.path, explicit: true))
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
        dir.file("out/a.jpg", ProvenanceMarkPackets.markedJPEG(sourceName: "a.HEIF"))
        let result = plans(dir, output: "out").compactMap(statusAndReason)
        #expect(result.count == 2)
        #expect(result[0].0 == .skipped)
        #expect(result[1] == (.failed, "output \(dir.path)/out/a.jpg is already the output of \(dir.path)/in/a.HEIF in this run; rename one of them"))
    }

    @Test("Our own earlier outputs are skipped, or replaced with --overwrite; HEIF data never")
    func existing() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/b.heic", TemporaryDirectory.heif)
        dir.file("out/a.jpg", ProvenanceMarkPackets.markedJPEG(sourceName: "a.heic"))
        dir.file("out/b.jpg", TemporaryDirectory.heif)
        let plain = plans(dir, output: "out").compactMap(statusAndReason)
        #expect(plain[0] == (.skipped, "output exists (use --overwrite to replace it)"))
        #expect(plain[1] == (.failed, "output \(dir.path)/out/b.jpg exists and holds HEIF data; refusing to overwrite what may be a source"))
        var options = ConversionOptions()
        options.overwrite = true
        let overwriting = plans(dir, options: options, output: "out")
        guard case .job(let job) = overwriting[0] else { Issue.record("a.jpg should be overwritten"); return }
        #expect(job.replacesExisting)
        #expect(statusAndReason(overwriting[1])! == (.failed, "output \(dir.path)/out/b.jpg exists and holds HEIF data; refusing to overwrite what may be a source"))
    }

    @Test("A file heic2jpg did not write for this source is never skipped nor replaced: the source fails, or goes to NAME-N.jpg")
    func foreign() throws {
        let dir = TemporaryDirectory()
        dir.file("in/IMG_1234.HEIC", TemporaryDirectory.heif)
        dir.file("in/IMG_2000.HEIC", TemporaryDirectory.heif)
        dir.file("out/IMG_1234.jpg", TemporaryDirectory.jpeg)  // a camera JPEG: no mark
        dir.file("out/IMG_2000.jpg", ProvenanceMarkPackets.markedJPEG(sourceName: "IMG_2001.HEIC"))  // another photo's output
        dir.file("out/IMG_2000-1.jpg", TemporaryDirectory.jpeg)
        let reason = { (name: String) in "\(dir.path)/out/\(name) exists and was not written by heic2jpg; it is left alone (--on-conflict suffix writes beside it)" }
        for overwrite in [false, true] {
            var options = ConversionOptions()
            options.overwrite = overwrite
            let result = plans(dir, options: options, output: "out").compactMap(statusAndReason)
            #expect(result.count == 2)
            #expect(result[0] == (.failed, reason("IMG_1234.jpg")), "overwrite \(overwrite)")
            #expect(result[1] == (.failed, reason("IMG_2000.jpg")), "overwrite \(overwrite)")
        }
        var options = ConversionOptions()
        options.onConflict = .suffix
        let suffixed = plans(dir, options: options, output: "out")
        guard case .job(let first) = suffixed[0], case .job(let second) = suffixed[1] else { Issue.record("expected jobs"); return }
        #expect(first.output == .path(dir.path + "/out/IMG_1234-1.jpg") && !first.replacesExisting)
        #expect(second.output == .path(dir.path + "/out/IMG_2000-2.jpg"))
    }

    @Test("A FIFO at the output path is not ours (never opened to wait for a writer); a directory there is refused")
    func specialOutputPath() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/b.heic", TemporaryDirectory.heif)
        dir.fifo("out/a.jpg")
        dir.directory("out/b.jpg")
        let result = plans(dir, output: "out").compactMap(statusAndReason)
        #expect(result.count == 2)
        #expect(result.first?.1?.hasPrefix("\(dir.path)/out/a.jpg exists and was not written by heic2jpg") == true, "\(result)")
        #expect(result.last?.1 == "output \(dir.path)/out/b.jpg exists and is a directory")
    }

    @Test("With no mark expected, our output is recognised by its source's modification time, to the nanosecond")
    func noMarkOwnership() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("in/a.heic", TemporaryDirectory.heif)
        let output = dir.file("out/a.jpg", TemporaryDirectory.jpeg)
        var options = ConversionOptions()
        options.mark = false
        // Files written a moment apart can share a timestamp (the kernel's clock ticks in
        // milliseconds): make the output's older for certain.
        var older = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, output, &older, 0) == 0)
        #expect(statusAndReason(plans(dir, options: options, output: "out")[0])?.0 == .failed)
        var times = [timespec](repeating: timespec(), count: 2)
        var info = stat()
        stat(source, &info)
        times[0] = info.st_atim
        times[1] = info.st_mtim
        #expect(utimensat(AT_FDCWD, output, times, 0) == 0)
        #expect(statusAndReason(plans(dir, options: options, output: "out")[0])?.0 == .skipped)
        // With a mark expected, equal times are not enough: a camera JPEG may share them.
        #expect(statusAndReason(plans(dir, output: "out")[0])?.0 == .failed)
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

@Suite("Planning: names (--name, -o FILE.jpg), strip marks, settings that differ, dry-run outputs")
struct PlannerNamingTests {
    func plans(_ dir: TemporaryDirectory, options: ConversionOptions = ConversionOptions(), naming: OutputNaming) -> [Plan] {
        let planner = Planner(options: options, publisher: OutputPublisher(), naming: naming)
        planner.listsPlannedOutputs = true
        return InputWalker(inputs: [dir.path + "/in"], outputRoot: dir.path + "/out")
            .compactMap { try? $0.get() }
            .map { planner.plan($0) }
    }

    func result(_ plan: Plan) -> ConversionResult? {
        guard case .done(let result) = plan else { return nil }
        return result
    }

    @Test("A template names the primary; {n} goes with the job, for its other images")
    func template() throws {
        let dir = TemporaryDirectory()
        dir.file("in/IMG_1.HEIC", TemporaryDirectory.heif)
        guard case .job(let named) = plans(dir, naming: .template(try NameTemplate("{name}")))[0],
              case .job(let numbered) = plans(dir, naming: .template(try NameTemplate("{stem}_{n}")))[0] else {
            Issue.record("expected jobs")
            return
        }
        #expect(named.output == .path(dir.path + "/out/IMG_1.HEIC.jpg") && named.conversion.numbered == nil)
        #expect(numbered.output == .path(dir.path + "/out/IMG_1_1.jpg"))
        #expect(numbered.conversion.path(of: .image(2)) == dir.path + "/out/IMG_1_2.jpg")
    }

    @Test("-o FILE.jpg: exactly that path, its other images beside it")
    func file() {
        let dir = TemporaryDirectory()
        dir.file("in/IMG_1.HEIC", TemporaryDirectory.heif)
        guard case .job(let job) = plans(dir, naming: .file(dir.path + "/pick.JPEG"))[0] else { Issue.record("expected a job"); return }
        #expect(job.output == .path(dir.path + "/pick.JPEG"))
        #expect(job.conversion.path(of: .image(2)) == dir.path + "/pick-2.JPEG")
    }

    @Test("A strip-mode mark names no file: the output is the source's when its digest is the source's")
    func stripMark() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("in/b.heic", TemporaryDirectory.heif + [0])
        let digest = try SourceDigest.hex(ofFileAt: source)
        let mark = ["sourceSHA256": digest, "mode": "lossy"]
        dir.file("out/a.jpg", ProvenanceMarkPackets.markedJPEG(sourceName: nil, values: mark))
        dir.file("out/b.jpg", ProvenanceMarkPackets.markedJPEG(sourceName: nil, values: mark))
        var options = ConversionOptions()
        options.metadata = .strip
        let results = plans(dir, options: options, naming: .template(.standard)).compactMap(result)
        #expect(results.map(\.status) == [.skipped, .failed])
        #expect(results[0].warnings.isEmpty, "same settings: \(results[0].warnings)")
        #expect(results[1].errorCode == .outputNotOurs, "another source's strip output, with the same name")
    }

    @Test("Our output written with another quality or mode: skipped with a warning that names --overwrite")
    func otherSettings() {
        let dir = TemporaryDirectory()
        dir.file("in/a.heic", TemporaryDirectory.heif)
        dir.file("out/a.jpg", ProvenanceMarkPackets.markedJPEG(sourceName: "a.heic", values: ["quality": "80", "mode": "lossy"]))
        let skipped = plans(dir, naming: .template(.standard)).compactMap(result)
        #expect(skipped.map(\.status) == [.skipped])
        #expect(skipped.first?.warnings == [Warning(.outputSettingsDiffer,
            "\(dir.path)/out/a.jpg exists, written with --metadata strip (this run: keep) and quality 80 (this run: 90); --overwrite replaces it")])
    }

    @Test("A dry run lists every output the conversion would write, named as the job names them")
    func dryRunOutputs() throws {
        let dir = TemporaryDirectory()
        let collection = [UInt8](try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/collection-3-images.heic")))
        dir.file("in/c.heic", collection)
        var options = ConversionOptions()
        options.dryRun = true
        let planned = try #require(plans(dir, options: options, naming: .template(try NameTemplate("{stem}_{n}"))).compactMap(result).first)
        #expect(planned.status == .planned && planned.output == dir.path + "/out/c_1.jpg")
        #expect(planned.outputs.map(\.path) == ["c_1", "c_2", "c_3"].map { dir.path + "/out/\($0).jpg" })
        #expect(!dir.exists("out"))
    }
}
