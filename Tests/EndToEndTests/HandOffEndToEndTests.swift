import Foundation
import H2JTestSupport
import Testing

/// `--delete-source` and `--move-source`: an original goes only after its outputs are
/// verified and recorded, and only when they carry all of it (issue #11).
@Suite("End to end: the verified hand-off of originals",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
struct HandOffEndToEndTests {
    /// Two plain photos and, from ../shared/corpus when present, libheif's file of two
    /// top-level images.
    static func tree(_ scratch: TemporaryDirectory) throws -> (single: [String], multi: String?) {
        let mono = try StateEndToEndTests.sample("monochrome.heic")
        let photo = try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic")
        let single = [scratch.file("in/a/mono.heic", mono), scratch.file("in/b/photo.heic", photo)]
        guard let corpus = Tool.corpus, let two = FileManager.default.contents(atPath: corpus + "/libheif/example-2images.heic") else {
            return (single, nil)
        }
        return (single, scratch.file("in/c/two-images.heic", [UInt8](two)))
    }

    @Test("--delete-source: verified originals are deleted and recorded with their outputs' SHA-256, every output of a two-image file verified; with --images primary it goes too (the user left the other image out), while a depth map no option asked to leave out keeps its original")
    func deleteSource() throws {
        let scratch = TemporaryDirectory()
        let (single, multi) = try Self.tree(scratch)
        let state = scratch.sub("state.db")
        let outcome = try Tool.run(["--state", state, "--delete-source", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for path in single { #expect(!FileManager.default.fileExists(atPath: path), "\(path) was not handed off") }
        let report = try ReportFile(scratch.sub("r.jsonl"))
        #expect(report.bySource["mono.heic"]?["handOff"] as? String == "deleted")
        if let multi {
            #expect(!FileManager.default.fileExists(atPath: multi), "both images are carried")
            #expect(report.bySource["two-images.heic"]?["handOff"] as? String == "deleted")
            let kinds = try StateEndToEndTests.query(state, "SELECT kind FROM outputs WHERE cast(source AS text) LIKE '%two-images.heic' ORDER BY path")
            #expect(kinds == ["image", "primary"])
        }
        // Every output's digest is recorded as published; the hand-off checked them all.
        let digests = try StateEndToEndTests.query(state, "SELECT count(*) FROM outputs WHERE sha256 IS NOT NULL")
        #expect(digests == [multi == nil ? "2" : "4"])
        let handOffs = try StateEndToEndTests.query(state, "SELECT cast(source AS text), action FROM handoffs ORDER BY 1")
        #expect(handOffs == ["a/mono.heic|deleted", "b/photo.heic|deleted"] + (multi == nil ? [] : ["c/two-images.heic|deleted"]))
        let status = try Tool.run(["status", state])
        #expect(status.stdoutText.contains("handed off: \(multi == nil ? 2 : 3)"), "\(status.stdoutText)")
        // The rerun has nothing to hand off, and reports the deleted sources' outputs as kept.
        let rerun = try Tool.run(["--state", state, "--delete-source", "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(rerun.status == 0, "\(rerun.stderr)")

        // The user's own --images primary leaves the second image out: named, and no reason to keep the original.
        let primaryOnly = TemporaryDirectory()
        guard let corpus = Tool.corpus, let two = try Self.tree(primaryOnly).multi else { return }
        let outcomePrimary = try Tool.run(["--images", "primary", "--state", primaryOnly.sub("s.db"), "--delete-source",
                                           "-o", primaryOnly.sub("out"), primaryOnly.sub("in")])
        #expect(outcomePrimary.status == 0 && !FileManager.default.fileExists(atPath: two), "\(outcomePrimary.stderr)")
        #expect(outcomePrimary.stderr.contains("left out as asked: 1 more image (#20006) (--images all writes them)"), "\(outcomePrimary.stderr)")
        // A depth map that no option left out keeps its original; --aux depth,gainmap carries it all.
        let depth = TemporaryDirectory()
        let iphone = depth.file("in/IMG.heic", [UInt8](try #require(FileManager.default.contents(atPath: corpus + "/iphone/iphone13pro-depth-gainmap.heic"))))
        let kept = try Tool.run(["--state", depth.sub("s.db"), "--delete-source", "-o", depth.sub("out"), depth.sub("in")])
        #expect(kept.status == 0 && FileManager.default.fileExists(atPath: iphone))
        #expect(kept.stderr.contains("IMG.heic: source kept: it holds what its outputs do not carry: a depth map (--aux depth writes it)"), "\(kept.stderr)")
        let carried = try Tool.run(["--aux", "depth,gainmap", "--state", depth.sub("s.db"), "--delete-source", "-o", depth.sub("out"), depth.sub("in")])
        #expect(carried.status == 0 && !FileManager.default.fileExists(atPath: iphone), "\(carried.stderr)")
        #expect(depth.files("out").sorted() == ["IMG.depth.jpg", "IMG.gainmap.jpg", "IMG.jpg"])
    }

    @Test("--move-source mirrors the tree; strip mode never hands off (its outputs leave metadata out); a state is required")
    func moveSource() throws {
        let scratch = TemporaryDirectory()
        let (single, multi) = try Self.tree(scratch)
        let outcome = try Tool.run(["--state", scratch.sub("state.db"), "--move-source", scratch.sub("done"), "-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(scratch.exists("done/a/mono.heic") && scratch.exists("done/b/photo.heic"))
        #expect(!FileManager.default.fileExists(atPath: single[0]))
        #expect(scratch.exists("done/c/two-images.heic") == (multi != nil))
        let strip = TemporaryDirectory()
        _ = try Self.tree(strip)
        let stripped = try Tool.run(["--metadata", "strip", "--state", strip.sub("s.db"), "--delete-source", "-o", strip.sub("out"), strip.sub("in")])
        #expect(stripped.status == 0 && strip.exists("in/a/mono.heic") && stripped.stderr.contains("source kept: its outputs do not carry all of it"), "\(stripped.stderr)")
        let refused = try Tool.run(["--delete-source", "-o", strip.sub("out"), strip.sub("in")])
        #expect(refused.status == 64 && strip.exists("in/a/mono.heic"))
    }

    @Test("A handed-off source is recorded as handed off: later runs and status never call it missing; kept sources are counted in the summary, even under --quiet, and status lists them with the reason (--json too)")
    func handedOffAndKeptForCron() throws {
        let scratch = TemporaryDirectory()
        let photo = try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic")
        let sources = [scratch.file("in/a/mono.heic", try StateEndToEndTests.sample("monochrome.heic")),
                       scratch.file("in/b/photo.heic", photo), scratch.file("in/k/p.heic", photo)]
        let state = scratch.sub("state.db")
        let arguments = ["--quiet", "--state", state, "--delete-source", "-o", scratch.sub("out"), scratch.sub("in")]
        // Strip mode's outputs leave metadata out: every source is kept, and even --quiet says how many.
        let stripped = try Tool.run(["--metadata", "strip"] + arguments)
        #expect(stripped.status == 0 && sources.allSatisfy(FileManager.default.fileExists), "\(stripped.stderr)")
        #expect(stripped.stderr.hasPrefix("heic2jpg: 3 converted, 0 copied, 0 skipped, 0 failed, 3 kept (not handed off) in "),
                "\(stripped.stderr)")
        let status = try Tool.run(["status", state])
        #expect(status.stdoutText.contains("kept (not handed off): 3\n"), "\(status.stdoutText)")
        #expect(status.stdoutText.contains("/in/k/p.heic: its outputs do not carry all of it"), "\(status.stdoutText)")
        let json = try JSONSerialization.jsonObject(with: Data(try Tool.run(["status", "--json", state]).stdoutText.utf8)) as? [String: Any]
        let listed = (json?["kept"] as? [[String: Any]]) ?? []
        #expect(listed.count == 3 && listed.allSatisfy { ($0["reason"] as? String)?.hasPrefix("its outputs do not carry all of it") == true
                                                          && ($0["source"] as? String)?.hasSuffix(".heic") == true }, "\(listed)")

        // Handed off in keep mode; the next runs are silent, and nothing is ever missing.
        let handOff = try Tool.run(arguments)
        #expect(handOff.status == 0 && handOff.stderr.isEmpty, "\(handOff.stderr)")
        #expect(sources.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        for _ in 0..<2 {
            let rerun = try Tool.run(["--state", state, "--delete-source", "-o", scratch.sub("out"), scratch.sub("in")])
            #expect(rerun.status == 0 && !rerun.stderr.contains("missing"), "\(rerun.stderr)")
        }
        let after = try Tool.run(["status", state])
        #expect(!after.stdoutText.contains("missing") && !after.stdoutText.contains("kept (not handed off)")
                && after.stdoutText.contains("handed off: 3"), "\(after.stdoutText)")
        #expect(try StateEndToEndTests.query(state, "SELECT count(*) FROM sources WHERE handed_off = 'deleted' AND status != 'missing-source'") == ["3"])
    }

    @Test("A new photo with a handed-off original's name never replaces that original's output, the only copy left of it: it fails as output-not-ours, run after run, and --on-conflict suffix writes it beside")
    func newPhotoWithAHandedOffName() throws {
        let scratch = TemporaryDirectory()
        let old = try StateEndToEndTests.sample("monochrome.heic")
        _ = scratch.file("in/IMG_0001.heic", old)
        let arguments = ["--state", scratch.sub("s.db"), "--delete-source", "-o", scratch.sub("out"), scratch.sub("in")]
        let first = try Tool.run(arguments)
        #expect(first.status == 0 && !scratch.exists("in/IMG_0001.heic"), "\(first.stderr)")
        let kept = try #require(FileManager.default.contents(atPath: scratch.sub("out/IMG_0001.jpg")))
        let source = scratch.file("in/IMG_0001.heic", try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic"))
        for _ in 0..<2 {
            let refused = try Tool.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains("out/IMG_0001.jpg is the output of ")
                    && refused.stderr.contains("an original handed off before"), "\(refused.stderr)")
            #expect(FileManager.default.contents(atPath: scratch.sub("out/IMG_0001.jpg")) == kept)
            #expect(FileManager.default.fileExists(atPath: source))
        }
        let suffixed = try Tool.run(["--on-conflict", "suffix"] + arguments)
        #expect(suffixed.status == 0 && scratch.exists("out/IMG_0001-1.jpg") && !FileManager.default.fileExists(atPath: source), "\(suffixed.stderr)")
        #expect(FileManager.default.contents(atPath: scratch.sub("out/IMG_0001.jpg")) == kept)
        let rerun = try Tool.run(arguments)
        #expect(rerun.status == 0 && !rerun.stderr.contains("missing"), "\(rerun.stderr)")
        #expect(FileManager.default.contents(atPath: scratch.sub("out/IMG_0001.jpg")) == kept)
    }

    @Test("--move-source onto another file system (EXDEV) copies as mv does: the copy has the original's bytes, times and bits, and only then is the original removed")
    func moveAcrossFileSystems() throws {
        let shm = "/dev/shm"
        var here = stat(), there = stat()
        let scratch = TemporaryDirectory()
        guard stat(scratch.path, &here) == 0, stat(shm, &there) == 0, here.st_dev != there.st_dev else { return }
        let photo = try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic")
        let source = scratch.file("in/a/p.heic", photo)
        #expect(chmod(source, 0o640) == 0)
        var before = stat()
        #expect(stat(source, &before) == 0)
        let done = shm + "/heic2jpg-test-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: done) }
        let outcome = try Tool.run(["--state", scratch.sub("s.db"), "--move-source", done, "-o", scratch.sub("out"),
                                    "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0 && outcome.stderr.contains("1 converted") && !outcome.stderr.contains("kept"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: source))
        #expect(FileManager.default.contents(atPath: done + "/a/p.heic").map { [UInt8]($0) } == photo)
        var moved = stat()
        #expect(stat(done + "/a/p.heic", &moved) == 0)
        #expect(moved.st_mode & 0o7777 == 0o640 && moved.st_mtim.tv_sec == before.st_mtim.tv_sec && moved.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(try ReportFile(scratch.sub("r.jsonl")).bySource["p.heic"]?["handOff"] as? String == "moved")
        #expect(try StateEndToEndTests.query(scratch.sub("s.db"), "SELECT action, cast(destination AS text) FROM handoffs") == ["moved|\(done)/a/p.heic"])
        // No temp file of the copy is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: done + "/a") == ["p.heic"])
    }

    @Test("An output that was never recorded (a run killed between publishing and recording, or one without --state) is converted again and verified, then the source is handed off")
    func unrecordedOwnOutput() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("in/a/mono.heic", try StateEndToEndTests.sample("monochrome.heic"))
        let plain = try Tool.run(["-o", scratch.sub("out"), scratch.sub("in")])
        #expect(plain.status == 0 && scratch.exists("out/a/mono.jpg"), "\(plain.stderr)")
        let state = scratch.sub("state.db")
        let outcome = try Tool.run(["--state", state, "--delete-source", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: source), "\(outcome.stderr)")
        let entry = try ReportFile(scratch.sub("r.jsonl")).bySource["mono.heic"]
        #expect(entry?["status"] as? String == "converted" && entry?["handOff"] as? String == "deleted")
        // A skipped record from an earlier --state run without the hand-off is refreshed the same way.
        let second = TemporaryDirectory()
        let kept = second.file("in/mono.heic", try StateEndToEndTests.sample("monochrome.heic"))
        _ = try Tool.run(["-o", second.sub("out"), second.sub("in")])
        _ = try Tool.run(["--state", second.sub("s.db"), "-o", second.sub("out"), second.sub("in")])
        #expect(try StateEndToEndTests.query(second.sub("s.db"), "SELECT status, complete FROM sources") == ["skipped|0"])
        let handOff = try Tool.run(["--state", second.sub("s.db"), "--delete-source", "-o", second.sub("out"), second.sub("in")])
        #expect(handOff.status == 0 && !FileManager.default.fileExists(atPath: kept), "\(handOff.stderr)")
        #expect(try StateEndToEndTests.query(second.sub("s.db"), "SELECT status, complete FROM sources") == ["updated|1"])
    }

    @Test("kill -9 at 20 moments of a --delete-source run, with a rerun after each: the run completes, no source is gone without a verified output recorded, the state is sound, no temp file is left")
    func killedDuringHandOff() throws {
        let scratch = TemporaryDirectory()
        let photo = try StateEndToEndTests.sample("photo-exif-gps-xmp-icc.heic")
        let sources = (0..<40).map { scratch.file("in/d\($0 % 4)/p\(String(format: "%02d", $0)).heic", photo) }
        let state = scratch.sub("state.db")
        let arguments = ["-j", "2", "--state", state, "--delete-source", "-o", scratch.sub("out"), scratch.sub("in")]
        var generator = SeededGenerator("killedDuringHandOff")
        for _ in 0..<20 {
            let run = try RunningTool(arguments)
            usleep(UInt32.random(in: 5_000...300_000, using: &generator))
            kill(run.pid, SIGKILL)
            _ = run.wait()
            let rerun = try Tool.run(arguments)
            #expect([0, 1].contains(rerun.status), "\(rerun.stderr)")
        }
        let final = try Tool.run(arguments)
        #expect(final.status == 0, "\(final.stderr)")
        let gone = sources.filter { !FileManager.default.fileExists(atPath: $0) }
        #expect(gone.count == 40, "every original handed off in the end")
        let verified = Set(try StateEndToEndTests.query(state, "SELECT cast(source AS text) FROM outputs WHERE sha256 IS NOT NULL"))
        for path in gone {
            let relative = String(path.dropFirst(scratch.sub("in/").count))
            #expect(verified.contains(relative), "\(relative) is gone without a verified output recorded")
        }
        #expect(try StateEndToEndTests.query(state, "PRAGMA integrity_check") == ["ok"])
        let outputs = ["d0", "d1", "d2", "d3"].flatMap { scratch.files("out/" + $0) }
        #expect(outputs.count == 40 && outputs.allSatisfy { $0.hasSuffix(".jpg") }, "\(outputs.filter { !$0.hasSuffix(".jpg") })")
    }
}
