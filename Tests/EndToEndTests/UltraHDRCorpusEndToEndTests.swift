import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JJPEG
@testable import H2JSupport

/// libavif's and CrabbyAvif's gain-map files (`../shared/corpus-wide/gainmap`, see its
/// SOURCES.md): an AV1 gain map that is only an input of a `tmap` item, hidden, which
/// libheif 1.15 reaches through no API, becomes the second image of an Ultra HDR JPEG;
/// the files ISO 21496-1 says to ignore are written as SDR with a warning that says why,
/// and claim no gain map; a gain map whose base is the HDR rendition is applied to it for
/// the SDR rendition (`Scripts/gainmap-sdr-check` checks its pixels).
/// (`Scripts/ultrahdr-check` runs libultrahdr's decoder over the honoured ones.)
@Suite("End to end: Ultra HDR from AVIF 'tmap' gain maps, and the files whose gain map is not used",
       .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"))
struct UltraHDRCorpusEndToEndTests {
    /// A file whose gain map is used: the report's `hdr`, the items, and the sizes.
    struct Honoured: Sendable, CustomStringConvertible {
        let file: String
        let toneMap: UInt32
        let gainMap: UInt32
        let size: String
        let gainMapSize: String
        /// The primary's PSNR against the reference, at least.
        var primaryPSNR = 34.0
        var description: String { file }
    }

    static let honoured = [
        // SDR base, 8-bit 4:4:4; a 3-channel gain map (its channels differ) at full size.
        Honoured(file: "libavif-seine-sdr-gainmap-srgb.avif", toneMap: 2, gainMap: 3, size: "400x300", gainMapSize: "400x300"),
        // 10-bit base and 8-bit 4:2:0 gain map, each with irot 90 and imir: libheif 1.15
        // cannot mirror the base (10 bits), which is placed upright by heic2jpg. The base is
        // a 34×12 pattern of saturated colours, whose 4:2:0 JPEG gives 33.9 dB at q 90 (35.5
        // at q 100); every other orientation gives under 14 dB.
        Honoured(file: "crabbyavif-gainmap-oriented.avif", toneMap: 3, gainMap: 4, size: "34x12", gainMapSize: "17x6", primaryPSNR: 32),
    ]

    static func path(_ file: String) -> String { (Tool.corpusWide ?? "") + "/gainmap/" + file }

    @Test("The hidden AV1 gain map of an honoured tmap is the second MPF image: its own size and transforms, 4:4:4 in colour, the tmap's values in hdrgm XMP and ISO APP2, its pixels libheif's of the item; the primary's pixels upright; exiftool validates",
          arguments: honoured)
    func honouredToneMap(_ expected: Honoured) throws {
        let source = Self.path(expected.file)
        try #require(FileManager.default.fileExists(atPath: source), "\(expected.file) is missing from corpus-wide")
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[expected.file])
        #expect(entry["hdr"] as? String == "Ultra HDR: ISO 21496-1 gain map ('tmap' item \(expected.toneMap), gain map item \(expected.gainMap))")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        let output = scratch.sub("out/" + (expected.file as NSString).deletingPathExtension + ".jpg")
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: output)))

        let mpf = try ExifTool.run(["-s", "-a", "-MPF:all", "-ImageSize", output]).stdoutText
        #expect(mpf.contains("NumberOfImages                  : 2") && mpf.contains("Baseline MP Primary Image"), "\(mpf)")
        #expect(mpf.contains("ImageSize                       : \(expected.size)"), "\(mpf)")
        let validation = try ExifTool.validationWarnings(of: bytes, name: "u.jpg")
        #expect(validation.filter { !$0.contains("Unknown APP2 segment") }.isEmpty, "\(validation)")

        let gainMap = try ExifTool.output(["-b", "-MPImage2", output])
        let tags = try ExifTool.run(["-s", "-ImageSize", "-ColorComponents", "-YCbCrSubSampling"], on: gainMap, name: "g.jpg")
        for line in ["ImageSize                       : \(expected.gainMapSize)", "ColorComponents                 : 3",
                     "YCbCrSubSampling                : YCbCr4:4:4 (1 1)"] {
            #expect(tags.contains(line), "\(line) in \(tags)")
        }
        // The tmap's metadata: in the gain map's ISO APP2 as it is, and in its hdrgm XMP.
        let file = MemoryByteSource([UInt8](try #require(FileManager.default.contents(atPath: source))))
        let metadata = try HEIFStructure.read(from: file).toneMappedImage(from: file)?.metadata.get()
        let iso = Array("urn:iso:std:iso:ts:21496:-1\0".utf8)
        let payloads = try #require(JPEGSegments(gainMap)).payloads(0xE2, signature: iso).map(Array.init)
        #expect(payloads.map { try? GainMapMetadata.parse([0] + $0).get() } == [metadata])
        let gainMapFile = scratch.file("g.jpg", gainMap)
        let json = try ChildProcess.run(ExifTool.path, ["-j", "-n", "-XMP-hdrgm:all", gainMapFile]).stdoutText
        let xmp = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first
        let channels = try #require(metadata?.channels)
        #expect((xmp?["GainMapMin"] as? [Double])?.count == 3 && channels.count == 3, "\(json)")
        for (index, channel) in channels.enumerated() {
            #expect(abs(((xmp?["GainMapMax"] as? [Double]) ?? [])[safe: index] - (channel.max.value ?? 0)) < 1e-5, "\(xmp ?? [:])")
            #expect(abs(((xmp?["Gamma"] as? [Double]) ?? [])[safe: index] - (channel.gamma.value ?? 0)) < 1e-5, "\(xmp ?? [:])")
        }

        // Pixels: the gain map against libheif's decode of the hidden item, patched in place
        // to be the primary; the primary against libheif's, transforms applied here when
        // libheif 1.15 cannot.
        let decodedGainMap = try #require(Reference.jpeg(bytes: gainMap)?.picture)
        let referenceGainMap = try #require(Reference.heifHiddenItem(source, expected.gainMap))
        #expect(decodedGainMap.psnr(against: referenceGainMap) >= 34, "gain map: \(decodedGainMap.psnr(against: referenceGainMap)) dB")
        let structure = try HEIFStructure.read(from: file)
        let transforms = try structure.transforms(of: structure.primaryID)
        let reference = try #require(Reference.heif(source) ?? Reference.heifUntransformed(source).map { picture in
            transforms.reduce(picture) { picture, transform in
                switch transform {
                case .rotation(let turns): picture.rotated(quarterTurns: turns)
                case .mirror(let axis): picture.mirrored(axis: axis == .vertical ? 0 : 1)
                case .cleanAperture: picture
                }
            }
        })
        let primary = try #require(Reference.jpeg(output)?.picture)
        #expect(primary.psnr(against: reference) >= expected.primaryPSNR, "primary: \(primary.psnr(against: reference)) dB")
    }

    /// Files whose gain map is not used, and the words of the warning that say why.
    static let ignored: [(file: String, reason: String)] = [
        ("libavif-seine-sdr-gainmap-notmapbrand.avif", "the file lacks the 'tmap' brand"),
        ("libavif-seine-sdr-gainmap-gammazero.avif", "gamma 0.0 is not positive"),
        ("libavif-unsupported-gainmap-version.avif", "'tmap' version 99 is not supported"),
        ("libavif-unsupported-gainmap-minimum-version.avif", "gain-map metadata minimum version 99 is not supported"),
        // libavif refuses it as an invalid tone-mapped image: writer version 0 with bytes after its metadata.
        ("libavif-supported-gainmap-writer-version-extra-bytes.avif", "4 bytes follow the gain-map metadata of writer version 0"),
    ]

    /// Files whose base is the HDR (PQ) rendition, their gain map item and its base's headroom
    /// in stops: the `tmap`s (one with writer version 99, which may add bytes; grids, with
    /// alpha) and Adobe's pre-ISO `hdrgm` auxiliary images.
    static let hdrBases: [(file: String, gainMap: UInt32, stops: String)] = [
        ("libavif-seine-hdr-gainmap-srgb.avif", 3, "1.3"),
        ("libavif-unsupported-gainmap-writer-version-extra-bytes.avif", 4, "3"),
        ("libavif-color-grid-gainmap-different-grid.avif", 28, "3"),
        ("libavif-color-grid-alpha-grid-gainmap-nogrid.avif", 28, "3"),
        ("libavif-seine-hdr-pq-srgb-adobe-auxl-gainmap.avif", 4, "1.3"),
        ("libavif-colors-hdr-rec2020-pq-adobe-auxl-gainmap.avif", 4, "1.2"),
    ]

    @Test("An HDR (PQ) base with a gain map to SDR: applied for the SDR primary in every mode, written back to the HDR base in the Ultra HDR output (headrooms exchanged, an SDR base); the seine's SDR is the authored one, not a blown-out sky",
          arguments: hdrBases.map(\.file))
    func hdrBase(_ file: String) throws {
        let (_, item, stops) = try #require(Self.hdrBases.first { $0.file == file })
        let source = Self.path(file)
        try #require(FileManager.default.fileExists(atPath: source), "\(file) is missing from corpus-wide")
        let scratch = TemporaryDirectory()
        let (output, gainMap, gainTags, entry) = try UltraHDREndToEndTests.ultraHDR(source, in: scratch)
        #expect((entry["hdr"] as? String ?? "").hasSuffix("gain map item \(item)) applied to the PQ base for the SDR rendition"), "\(entry["hdr"] ?? "")")
        #expect(!(entry["warningCodes"] as? [String] ?? []).contains("gain-map-not-used"), "\(entry["warnings"] ?? "")")
        for expected in ["BaseRenditionIsHDR              : False", "HDRCapacityMin                  : 0",
                         "HDRCapacityMax                  : \(stops)"] {
            #expect(gainTags.contains(expected), "\(expected) in \(gainTags)")
        }
        #expect(output.count > gainMap.count)
        // --hdr sdr: the same SDR pixels, and no claim of a gain map.
        let name = (file as NSString).deletingPathExtension
        let sdr = try Tool.run(["--hdr", "sdr", "-o", scratch.sub("sdr"), "--report", scratch.sub("sdr.jsonl"), source])
        #expect(sdr.status == 0, "\(sdr.stderr)")
        let sdrEntry = try #require(try ReportFile(scratch.sub("sdr.jsonl")).bySource[file])
        #expect((sdrEntry["hdr"] as? String ?? "").hasPrefix("SDR only: "), "\(sdrEntry["hdr"] ?? "")")
        let sdrBytes = try #require(FileManager.default.contents(atPath: scratch.sub("sdr/\(name).jpg")))
        #expect(sdrBytes.range(of: Data("hdrgm:".utf8)) == nil && sdrBytes.range(of: Data("MPF\0".utf8)) == nil)
        let primary = try #require(Reference.jpeg(scratch.sub("out/\(name).jpg"))?.picture)
        #expect(try #require(Reference.jpeg(scratch.sub("sdr/\(name).jpg"))?.picture).psnr(against: primary) == 99)
        guard file.hasPrefix("libavif-seine") else { return }
        // The seine's authored SDR rendition is the base of its SDR-base twin; heic2jpg's own
        // tone curve blew out 32.5 % of its pixels (a channel at 250 or above).
        let authored = try #require(Reference.heif(Self.path("libavif-seine-sdr-gainmap-srgb.avif")))
        #expect(primary.psnr(against: authored) >= 32, "\(primary.psnr(against: authored)) dB against the authored SDR")
        let bright = stride(from: 0, to: primary.pixels.count, by: 3).filter { primary.pixels[$0..<($0 + 3)].contains { $0 >= 250 } }.count
        #expect(Double(bright) / Double(primary.width * primary.height) < 0.02, "\(bright) pixels at 250 or above")
    }

    @Test("A tmap ISO 21496-1 says to ignore: a gain-map-not-used warning that says why; an SDR primary is written SDR only, with no hdrgm XMP, Container directory, MPF or ISO segment anywhere in the output; a PQ primary gets a computed gain map instead",
          arguments: ignored.map(\.file))
    func ignoredToneMap(_ file: String) throws {
        let reason = try #require(Self.ignored.first { $0.file == file }?.reason)
        let source = Self.path(file)
        try #require(FileManager.default.fileExists(atPath: source), "\(file) is missing from corpus-wide")
        let hdrPrimary = try HEIFStructure.read(from: MemoryByteSource([UInt8](try #require(FileManager.default.contents(atPath: source)))))
            .hdrTransferName() != nil
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[file])
        let warnings = entry["warnings"] as? [String] ?? []
        #expect((entry["warningCodes"] as? [String] ?? []).contains("gain-map-not-used"), "\(warnings)")
        let outcomeWords = hdrPrimary ? "the gain map is computed from the HDR primary instead" : "written as SDR only"
        #expect(warnings.contains { $0.contains(reason) && $0.hasSuffix(outcomeWords) }, "\(warnings)")
        let outputs = scratch.files("out")
        #expect(outputs == [(file as NSString).deletingPathExtension + ".jpg"])
        if hdrPrimary {
            #expect((entry["hdr"] as? String ?? "").hasPrefix("Ultra HDR: gain map computed"), "\(entry["hdr"] ?? "")")
            return
        }
        #expect(entry["hdr"] is NSNull, "\(entry["hdr"] ?? "")")
        for output in outputs {
            let bytes = try #require(FileManager.default.contents(atPath: scratch.sub("out/" + output)))
            for claim in ["hdrgm:", "Container:Directory", "MPF\0", "urn:iso:std:iso:ts:21496"] {
                #expect(bytes.range(of: Data(claim.utf8)) == nil, "\(output) carries \(claim)")
            }
        }
    }

    @Test("A grid gain map, or a single one, shown as an HEIF of its own decodes in libheif 1.15 as the hidden item does in place")
    func standaloneGainMaps() throws {
        for file in ["libavif-color-grid-gainmap-different-grid.avif", "libavif-color-grid-alpha-grid-gainmap-nogrid.avif",
                     "libavif-seine-sdr-gainmap-srgb.avif"] {
            let path = Self.path(file)
            let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
            let gainMap = try #require(structure.toneMappedImage(from: MemoryByteSource(bytes))?.gainMap)
            let shown = try structure.standaloneImage(gainMap, in: MemoryByteSource(bytes))
            let scratch = TemporaryDirectory()
            let copy = scratch.sub("standalone.heif")
            #expect(FileManager.default.createFile(atPath: copy, contents: Data(try shown.read(at: 0, count: shown.size))))
            let decoded = try #require(Reference.heif(copy), "\(file)")
            let reference = try #require(Reference.heifHiddenItem(path, gainMap), "\(file)")
            #expect(decoded.width == reference.width && decoded.height == reference.height, "\(file)")
            #expect(decoded.psnr(against: reference) == 99, "\(file): the same pixels")
        }
    }
}

private extension Array where Element == Double {
    /// The element at `index`, or NaN (which fails every comparison) past the end.
    subscript(safe index: Int) -> Double { indices.contains(index) ? self[index] : .nan }
}
