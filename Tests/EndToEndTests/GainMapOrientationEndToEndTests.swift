import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// A gain map lies as its photo does in the Ultra HDR output, whatever the primary's
/// orientation: one without transforms of its own (a Galaxy S24's) takes the primary's
/// `irot`, `imir` and `clap`, one with its own (an iPhone's) keeps them. The fixtures
/// (`Scripts/make-grid-heic --gain-map-picture photo`) have a gain map that is the photo
/// at half size, so its codes follow the photo's light only when it lies the right way.
@Suite("End to end: a gain map lies as the photo does, in each of the eight orientations")
struct GainMapOrientationEndToEndTests {
    /// `make-grid-heic --gain-map`'s kinds: Apple's auxiliary image, an ISO 21496-1 `tmap`
    /// input, Samsung's `hdrgm` auxiliary image.
    static let kinds = ["apple", "tmap", "samsung"]

    /// EXIF's eight orientations: `irot` 0, 90, 180, 270, each with no `imir` or axis 1.
    static let orientations: [(rotate: Int, mirror: String?)] = [0, 90, 180, 270].flatMap { [($0, nil), ($0, "horizontal")] }

    /// A 192×128 photo (seed 7) with a gain map of `kind` that is the photo at half size,
    /// written by make-grid-heic into `scratch`'s `src` as `name`.heic.
    static func source(_ name: String, kind: String, rotate: Int, mirror: String?, gainMapTransforms: String, clap: String? = nil,
                       in scratch: TemporaryDirectory) throws {
        _ = try HEVCReference.tool("x265")
        let script = Tool.packageRoot.appendingPathComponent("Scripts/make-grid-heic").path
        var arguments = [script, "-o", scratch.sub("src/\(name).heic"), "--single", "--width", "192", "--height", "128", "--crf", "26",
                         "--seed", "7", "--gain-map", kind, "--gain-map-picture", "photo", "--gain-map-transforms", gainMapTransforms,
                         "--rotate", "\(rotate)"]
        if let mirror { arguments += ["--mirror", mirror] }
        if let clap { arguments += ["--clap", clap] }
        try FileManager.default.createDirectory(atPath: scratch.sub("src"), withIntermediateDirectories: true)
        let made = try ChildProcess.run("/usr/bin/python3", arguments)
        try #require(made.status == 0, "make-grid-heic: \(made.stderr)")
    }

    /// The output's photo and gain map (the second MPF image), and the gain map's luma
    /// correlation with the photo's as written, and turned or mirrored any other way
    /// that fits the photo's shape (−1 as written when its shape does not).
    static func correlations(_ output: String) throws -> (photo: RGBPicture, gainMap: RGBPicture, asWritten: Double, otherwise: [Double]) {
        let photo = try #require(Reference.jpeg(output)?.picture)
        let gainMap = try #require(Reference.jpeg(bytes: try ExifTool.output(["-b", "-MPImage2", output]))?.picture)
        let others = [0, 1, 2, 3].flatMap { [gainMap.rotated(quarterTurns: $0), gainMap.rotated(quarterTurns: $0).mirrored(axis: 1)] }.dropFirst()
        return (photo, gainMap, gainMap.lumaCorrelation(with: photo) ?? -1, others.compactMap { $0.lumaCorrelation(with: photo) })
    }

    @Test("A gain map without transforms takes the primary's, and one with its own keeps them: in all eight orientations it correlates with the photo's luma (over 0.9), and far better than turned any other way (by 0.5)",
          arguments: kinds)
    func orientations(_ kind: String) throws {
        let scratch = TemporaryDirectory()
        var names: [String] = []
        for transforms in ["none", "own"] {
            for (rotate, mirror) in Self.orientations {
                let name = "\(kind)-\(transforms)-irot\(rotate)" + (mirror == nil ? "" : "-imir1")
                try Self.source(name, kind: kind, rotate: rotate, mirror: mirror, gainMapTransforms: transforms, in: scratch)
                names.append(name)
            }
        }
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), scratch.sub("src")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try ReportFile(scratch.sub("r.jsonl"))
        for name in names {
            let entry = report.bySource[name + ".heic"]
            #expect((entry?["hdr"] as? String)?.hasPrefix("Ultra HDR: ") == true, "\(name): \(entry ?? [:])")
            #expect((entry?["warningCodes"] as? [String] ?? []).isEmpty, "\(name): \(entry?["warnings"] ?? "")")
            let (photo, gainMap, asWritten, otherwise) = try Self.correlations(scratch.sub("out/\(name).jpg"))
            #expect(gainMap.width * 2 == photo.width && gainMap.height * 2 == photo.height,
                    "\(name): gain map \(gainMap.width)×\(gainMap.height) under a \(photo.width)×\(photo.height) photo")
            #expect(asWritten > 0.9, "\(name): \(asWritten)")
            #expect(otherwise.allSatisfy { $0 < asWritten - 0.5 }, "\(name): \(asWritten) against \(otherwise)")
        }
    }

    @Test("A gain map without transforms takes the primary's clap scaled to its size, before the turn and mirror: 80×56 of 96×64, turned to 56×80 under a 112×160 photo",
          arguments: ["tmap", "samsung"])
    func cleanAperture(_ kind: String) throws {
        let scratch = TemporaryDirectory()
        try Self.source("clap", kind: kind, rotate: 90, mirror: "horizontal", gainMapTransforms: "none", clap: "160,112", in: scratch)
        let outcome = try Tool.run(["-o", scratch.sub("out"), scratch.sub("src/clap.heic")])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let (photo, gainMap, asWritten, otherwise) = try Self.correlations(scratch.sub("out/clap.jpg"))
        #expect(photo.width == 112 && photo.height == 160 && gainMap.width == 56 && gainMap.height == 80)
        #expect(asWritten > 0.9 && otherwise.allSatisfy { $0 < asWritten - 0.5 }, "\(asWritten) against \(otherwise)")
    }
}
