import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// Bad inputs, collisions, limits and interruption: one bad file never stops the
/// batch, never leaves a stray file, and always gets a reason.
@Suite("End to end: failures are contained")
struct FailureEndToEndTests {
    static let sample = Tool.samples + "/photo-exif-gps-xmp-icc.heic"

    func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: path)))
    }

    func write(_ bytes: [UInt8], _ path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    }

    /// Report lines by source file name.
    func report(_ path: String) throws -> [String: [String: Any]] {
        try ReportFile(path).bySource
    }

    @Test("A batch with broken files converts the rest, exits 1 and leaves nothing stray")
    func brokenFiles() throws {
        let scratch = TemporaryDirectory()
        let good = try bytes(Self.sample)
        try write(good, scratch.sub("in/good.heic"))
        try write(Array(good.prefix(good.count / 2)), scratch.sub("in/truncated.heic"))
        try write([], scratch.sub("in/empty.heic"))
        try write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 32), scratch.sub("in/png.heic"))
        var corrupted = good
        for i in stride(from: 2000, to: corrupted.count, by: 97) { corrupted[i] ^= 0x5A }
        try write(corrupted, scratch.sub("in/bitstream.heic"))
        try write(Array("just notes".utf8), scratch.sub("in/notes.txt"))
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 1)
        let entries = try report(scratch.sub("r.jsonl"))
        #expect(entries["good.heic"]?["status"] as? String == "converted")
        #expect(entries["notes.txt"] == nil, "non-HEIF files with other names are ignored")
        #expect(entries["empty.heic"]?["reason"] as? String == "not a HEIF image: looks like an empty file")
        #expect(entries["png.heic"]?["reason"] as? String == "not a HEIF image: looks like PNG")
        #expect((entries["truncated.heic"]?["reason"] as? String)?.isEmpty == false)
        for name in ["empty.heic", "png.heic", "truncated.heic"] {
            #expect(entries[name]?["status"] as? String == "failed", "\(name)")
            #expect(outcome.stderr.contains("error: \(scratch.sub("in/" + name)): "), "\(name) has no error line")
        }
        // The bit-flipped file may decode (HEVC conceals errors) or fail; either way it ends cleanly.
        #expect(["converted", "failed"].contains(entries["bitstream.heic"]?["status"] as? String ?? ""))
        let expected = entries["bitstream.heic"]?["status"] as? String == "converted" ? ["bitstream.jpg", "good.jpg"] : ["good.jpg"]
        #expect(scratch.files("out") == expected, "only complete outputs, no temp files")
        #expect(scratch.files("in").count == 6, "sources untouched")
    }

    @Test("A declared 60000×60000 image is refused before any allocation")
    func decompressionBomb() throws {
        let scratch = TemporaryDirectory()
        var file = try bytes(Self.sample)
        // Patch every ispe box to declare 60000×60000.
        var patched = 0
        for i in 0..<(file.count - 16) where file[i..<(i + 4)].elementsEqual("ispe".utf8) {
            for (k, byte) in [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60].enumerated() { file[i + 8 + k] = UInt8(byte) }
            patched += 1
        }
        #expect(patched > 0)
        try write(file, scratch.sub("bomb.heic"))
        let outcome = try Tool.run(["-o", scratch.sub("out"), scratch.sub("bomb.heic")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("image is 60000×60000 (3600 MP), over the 256 MP limit"), "\(outcome.stderr)")
        #expect(scratch.files("out").isEmpty)
    }

    @Test("A corrupt tile fails its file, names the tile, and stops the other decoding threads cleanly")
    func corruptTile() throws {
        let scratch = TemporaryDirectory()
        let source = Tool.samples + "/grid-rotated-mirrored.heic"
        var file = try bytes(source)
        let structure = try HEIFStructure.read(from: MemoryByteSource(file))
        // The 8th of 15 tiles: scramble its slice data (past the NAL length and header).
        let tile = try #require(structure.referenced(from: structure.primaryID, type: "dimg").dropFirst(7).first)
        let extent = try #require(structure.locations[tile]?.extents.first)
        for i in (extent.offset + 12)..<(extent.offset + extent.length) { file[i] = UInt8(truncatingIfNeeded: i &* 131) }
        try write(file, scratch.sub("in/corrupt.heic"))
        try write(try bytes(source), scratch.sub("in/good.heic"))
        // Alone (every core decodes its tiles), then in a batch beside a good file.
        let single = try Tool.run(["-o", scratch.sub("single"), scratch.sub("in/corrupt.heic")])
        #expect(single.status == 1)
        #expect(single.stderr.contains("corrupt.heic: tile 8 of 15 (item \(tile)): HEVC decoding failed") ||
                single.stderr.contains("corrupt.heic: tile 8 of 15 (item \(tile)): the tile produced no picture"), "\(single.stderr)")
        #expect(scratch.files("single").isEmpty)
        let batch = try Tool.run(["-o", scratch.sub("batch"), scratch.sub("in")])
        #expect(batch.status == 1)
        #expect(scratch.files("batch") == ["good.jpg"])
    }

    @Test("Damaged images the libheif engine decodes (10 bits, 4:0:0, alpha) fail as decode-failed, not as wrong pixels",
          arguments: ["10bit-gradient.heic", "monochrome-10bit.heic", "alpha-transparent.heic"])
    func damagedLibheifEngine(name: String) throws {
        // libheif's own libde265 plugin made wrong pixels of 141 of 210 such copies of these
        // three samples (Scripts/damage-corpus).
        try expectDamagedCopiesFail(try bytes(Tool.samples + "/" + name), ext: "heic")
    }

    @Test("A damaged AVIF fails as decode-failed: AV1 goes to libaom, which detects it, not to dav1d, which conceals it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc"), "heif-enc is not installed: Scripts/setup --test"))
    func damagedAVIF() throws {
        let scratch = TemporaryDirectory()
        #expect(try Tool.run(["-o", scratch.sub("photo.jpg"), Self.sample]).status == 0)
        let made = try ChildProcess.run("/usr/bin/heif-enc", ["-A", "-q", "60", scratch.sub("photo.jpg"), "-o", scratch.sub("photo.avif")])
        try #require(made.status == 0, "heif-enc -A: \(made.stderr)")
        let intact = try bytes(scratch.sub("photo.avif"))
        #expect(try Tool.run(["-o", scratch.sub("intact.jpg"), scratch.sub("photo.avif")]).status == 0)
        try expectDamagedCopiesFail(intact, ext: "avif")
    }

    /// Copies of `intact` damaged inside the primary's data, at a third and at two thirds of
    /// it (past its first 40 bytes, so headers hold): a 64-byte run of zeros, and one flipped
    /// bit. Each must fail as `decode-failed`, and none leave an output.
    func expectDamagedCopiesFail(_ intact: [UInt8], ext: String) throws {
        let scratch = TemporaryDirectory()
        let structure = try HEIFStructure.read(from: MemoryByteSource(intact))
        let extent = try #require(structure.locations[structure.primaryID]?.extents.first)
        var copies: [String: [UInt8]] = [:]
        for fraction in [1, 2] {
            let at = extent.offset + 40 + (extent.length - 40) * fraction / 3
            var zeroed = intact
            for i in at..<min(at + 64, extent.offset + extent.length) { zeroed[i] = 0 }
            copies["zeroed-\(fraction).\(ext)"] = zeroed
            var flipped = intact
            flipped[at] ^= 0x10
            copies["flipped-\(fraction).\(ext)"] = flipped
        }
        for (copy, file) in copies { try write(file, scratch.sub("in/" + copy)) }
        let run = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("report.jsonl"), scratch.sub("in")])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(scratch.files("out").isEmpty, "\(run.stderr)")
        let lines = try report(scratch.sub("report.jsonl"))
        #expect(Set(lines.keys).isSuperset(of: copies.keys), "\(lines.keys)")
        for (copy, line) in lines where copies[copy] != nil {
            #expect(line["status"] as? String == "failed" && line["errorCode"] as? String == "decode-failed", "\(copy): \(line)")
        }
    }

    @Test("A tile whose slice ends early fails its file, naming the tile and the check; --delete-source keeps the original")
    func sliceEndsEarly() throws {
        let scratch = TemporaryDirectory()
        // One flipped bit in tile 13's slice data (Scripts/damage-corpus, seed 1, bitflip #9):
        // libde265 ends the slice early without a word, and d4eebac wrote a 27 dB JPEG.
        var file = try bytes(Tool.samples + "/grid-rotated-mirrored.heic")
        file[27419] ^= 0x08
        try write(file, scratch.sub("in/damaged.heic"))
        try write(try bytes(Self.sample), scratch.sub("in/good.heic"))
        let run = try Tool.run(["-o", scratch.sub("out"), "--state", scratch.sub("state.db"), "--delete-source", scratch.sub("in")])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("damaged.heic: tile 13 of 15 (item 14): the slice ends before the picture does (the 8×8 block at 64,64 was never decoded)"), "\(run.stderr)")
        #expect(scratch.files("out") == ["good.jpg"])
        #expect(scratch.files("in") == ["damaged.heic"])
    }

    @Test("-o -: a file that fails halfway through its tiles puts nothing on stdout, not a truncated JPEG")
    func stdoutFailureMidStream() throws {
        let source = Tool.samples + "/grid-rotated-mirrored.heic"
        var file = try bytes(source)
        let structure = try HEIFStructure.read(from: MemoryByteSource(file))
        // The last tile is decoded after most of the JPEG has been encoded.
        let tile = try #require(structure.referenced(from: structure.primaryID, type: "dimg").last)
        let extent = try #require(structure.locations[tile]?.extents.first)
        for i in (extent.offset + 12)..<(extent.offset + extent.length) { file[i] = UInt8(truncatingIfNeeded: i &* 131) }
        let scratch = TemporaryDirectory()
        try write(file, scratch.sub("corrupt.heic"))
        let failed = try Tool.run(["-o", "-", scratch.sub("corrupt.heic")])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stdout.isEmpty, "\(failed.stdout.count) bytes on stdout")
        let good = try Tool.run(["-o", "-", source])
        #expect(good.status == 0 && good.stdout.starts(with: [0xFF, 0xD8]) && good.stdout.suffix(2) == Data([0xFF, 0xD9]))
    }

    @Test("Two inputs for one output: the second fails with a reason, the first converts")
    func collision() throws {
        let scratch = TemporaryDirectory()
        let good = try bytes(Self.sample)
        try write(good, scratch.sub("in/a.HEIF"))
        try write(good, scratch.sub("in/a.heic"))
        let outcome = try Tool.run(["-o", scratch.sub("out"), scratch.sub("in")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("error: \(scratch.sub("in/a.heic")): output \(scratch.sub("out/a.jpg")) is already the output of \(scratch.sub("in/a.HEIF")) in this run; rename one of them"), "\(outcome.stderr)")
        #expect(scratch.files("out") == ["a.jpg"])
    }

    @Test("A broken first claimant does not block a good second one")
    func collisionWithBrokenFirst() throws {
        let scratch = TemporaryDirectory()
        let good = try bytes(Self.sample)
        try write(Array(good.prefix(300)), scratch.sub("in/a.HEIF"))
        try write(good, scratch.sub("in/a.heic"))
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")])
        #expect(outcome.status == 1)
        let entries = try report(scratch.sub("r.jsonl"))
        #expect(entries["a.HEIF"]?["status"] as? String == "failed")
        #expect(entries["a.heic"]?["status"] as? String == "converted")
        #expect(scratch.files("out") == ["a.jpg"])
    }

    @Test("Sources are never written: HEIF named .jpg is refused in place")
    func neverOverwritesSource() throws {
        let scratch = TemporaryDirectory()
        let good = try bytes(Self.sample)
        try write(good, scratch.sub("in/photo.jpg"))
        let outcome = try Tool.run(["--overwrite", scratch.sub("in")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("output would overwrite the source itself"))
        #expect(try bytes(scratch.sub("in/photo.jpg")) == good)
    }

    @Test("Dry run writes nothing")
    func dryRun() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["--dry-run", "-v", "-o", scratch.sub("out"), Tool.samples])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.contains("planned: \(Tool.samples)/monochrome.heic -> \(scratch.sub("out"))/monochrome.jpg"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.sub("out")))
    }

    @Test("SIGINT mid-batch leaves only complete JPEGs and no temp file, and the report still ends with its summary")
    func interrupted() throws {
        let scratch = TemporaryDirectory()
        let good = try bytes(Tool.samples + "/10bit-gradient.heic")
        for i in 0..<60 { try write(good, scratch.sub("in/\(i).heic")) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.binary)
        process.arguments = ["-j", "2", "-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("in")]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the run is under way, then interrupt it.
        let deadline = Date().addingTimeInterval(20)
        while scratch.files("out").isEmpty && Date() < deadline && process.isRunning { usleep(5_000) }
        process.interrupt()
        process.waitUntilExit()
        let outputs = scratch.files("out")
        #expect(process.terminationStatus == 128 + SIGINT || (process.terminationStatus == 0 && outputs.count == 60))
        #expect(outputs.allSatisfy { $0.hasSuffix(".jpg") && !$0.hasPrefix(".") }, "\(outputs)")
        let summary = try ReportFile(scratch.sub("r.jsonl")).summary
        #expect(summary != nil, "the report ends with a summary")
        if process.terminationStatus == 128 + SIGINT { #expect(summary?["interruptedBy"] as? String == "SIGINT", "\(summary ?? [:])") }
        for name in outputs {
            let decoded = Reference.jpeg(scratch.sub("out/" + name))
            #expect(decoded != nil && decoded?.warnings == 0, "\(name) is incomplete")
        }
    }
}
