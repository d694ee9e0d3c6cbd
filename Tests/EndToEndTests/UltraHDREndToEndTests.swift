import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JJPEG
@testable import H2JSupport

/// A gain map becomes an Ultra HDR JPEG: the SDR primary, then the gain map as a second
/// Multi-Picture image, with Adobe's hdrgm XMP and ISO 21496-1 APP2 segments.
/// (`Scripts/ultrahdr-check` runs libultrahdr's own decoder over the same files.)
@Suite("End to end: Ultra HDR from HEIF gain maps")
struct UltraHDREndToEndTests {
    static var iPhone: String { (Tool.corpus ?? "") + "/iphone/iphone13pro-depth-gainmap.heic" }

    /// Converts `source`; returns the output's bytes, the gain-map JPEG (the second MPF
    /// image, as exiftool extracts it), its tags and the report entry.
    static func ultraHDR(_ source: String, in scratch: TemporaryDirectory) throws
        -> (output: [UInt8], gainMap: [UInt8], gainTags: String, entry: [String: Any]) {
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let name = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        let output = scratch.sub("out/\(name).jpg")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[(source as NSString).lastPathComponent])
        let gainMap = try ExifTool.output(["-b", "-MPImage2", output])
        let gainTags = try ExifTool.run(["-s", "-XMP:all", "-ImageSize", "-ColorComponents"], on: gainMap, name: "gainmap.jpg")
        return ([UInt8](try #require(FileManager.default.contents(atPath: output))), gainMap, gainTags, entry)
    }

    @Test("Samples/gainmap-apple.heic: the headroom from the gain map's XMP (4: 2 stops), Apple's XMP kept on the gain map, its codes remapped; nothing left to warn about")
    func appleSample() throws {
        let source = Tool.samples + "/gainmap-apple.heic"
        let (output, gainMap, gainTags, entry) = try Self.ultraHDR(source, in: TemporaryDirectory())
        #expect(entry["hdr"] as? String == "Ultra HDR: Apple gain map (item 2), headroom 4 from the XMP HDRGainMapHeadroom")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        for expected in ["GainMapMax                      : 2", "HDRCapacityMax                  : 2", "Gamma                           : 1",
                         "HDRGainMapHeadroom              : 4.000000", "ImageSize                       : 192x128",
                         "ColorComponents                 : 1"] {
            #expect(gainTags.contains(expected), "\(expected) in \(gainTags)")
        }
        let source8 = try #require(Reference.heifAuxiliary(source, 2))
        let decoded = try #require(Reference.jpeg(bytes: gainMap)?.picture)
        #expect(decoded.psnr(against: Self.appleRemapped(source8, headroom: 4)) >= 38)
        #expect(output.count > gainMap.count)
    }

    @Test("Samples/gainmap-tmap.heic (Samsung-style): the tmap's metadata as it is, in hdrgm values and the gain map's ISO APP2 byte for byte; the codes copied; the tmap and the gain map carried, nothing to warn about")
    func toneMapSample() throws {
        let source = Tool.samples + "/gainmap-tmap.heic"
        let (_, gainMap, gainTags, entry) = try Self.ultraHDR(source, in: TemporaryDirectory())
        #expect(entry["hdr"] as? String == "Ultra HDR: ISO 21496-1 gain map ('tmap' item 3, gain map item 2)")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        for expected in ["GainMapMin                      : 0", "GainMapMax                      : 2", "Gamma                           : 1",
                         "OffsetSDR                       : 0.015625", "OffsetHDR                       : 0.015625",
                         "HDRCapacityMax                  : 2", "ImageSize                       : 192x128"] {
            #expect(gainTags.contains(expected), "\(expected) in \(gainTags)")
        }
        // The tmap body is version 0, then the very payload of the gain map's ISO APP2.
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: source)))
        let structure = try HEIFStructure.read(from: MemoryByteSource(bytes))
        let body = try structure.itemData(3, from: MemoryByteSource(bytes), maxBytes: 4096)
        let iso = Array("urn:iso:std:iso:ts:21496:-1\0".utf8)
        let segments = try #require(JPEGSegments(gainMap))
        #expect(segments.payloads(0xE2, signature: iso).map(Array.init) == [Array(body.dropFirst())])
        let decoded = try #require(Reference.jpeg(bytes: gainMap)?.picture)
        #expect(decoded.psnr(against: try #require(Reference.heifAuxiliary(source, 2))) >= 38, "the codes as they are")
    }

    @Test("Samples/gainmap-samsung-hdrgm.heic (a Galaxy S24 without tmap): the hdrgm values of the gain map's XMP restated, its codes copied; --aux gainmap also writes the gain map, as Apple's")
    func samsungHDRGMSample() throws {
        let source = Tool.samples + "/gainmap-samsung-hdrgm.heic"
        let scratch = TemporaryDirectory()
        let (_, gainMap, gainTags, entry) = try Self.ultraHDR(source, in: scratch)
        #expect(entry["hdr"] as? String == "Ultra HDR: Adobe gain map (hdrgm values from its own XMP, gain map item 2)")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        for expected in ["GainMapMin                      : 0", "GainMapMax                      : 2", "Gamma                           : 1",
                         "OffsetSDR                       : 0.015625", "HDRCapacityMax                  : 2",
                         "BaseRenditionIsHDR              : False", "ImageSize                       : 192x128"] {
            #expect(gainTags.contains(expected), "\(expected) in \(gainTags)")
        }
        let decoded = try #require(Reference.jpeg(bytes: gainMap)?.picture)
        #expect(decoded.psnr(against: try #require(Reference.heifAuxiliary(source, 2))) >= 38, "the codes as they are")
        let aux = try Tool.run(["--aux", "gainmap", "-o", scratch.sub("aux"), source])
        #expect(aux.status == 0, "\(aux.stderr)")
        #expect(scratch.files("aux") == ["gainmap-samsung-hdrgm.gainmap.jpg", "gainmap-samsung-hdrgm.jpg"])
    }

    @Test("Samples/gainmap-samsung-hdrgm-irot90.heic (a Galaxy S24 Ultra's portrait photo: irot 90 on the primary, none on its gain map): the gain map turned as the photo, portrait under a portrait photo, its light the photo's")
    func samsungTurnedSample() throws {
        let source = Tool.samples + "/gainmap-samsung-hdrgm-irot90.heic"
        let scratch = TemporaryDirectory()
        let (_, _, gainTags, entry) = try Self.ultraHDR(source, in: scratch)
        #expect(entry["hdr"] as? String == "Ultra HDR: Adobe gain map (hdrgm values from its own XMP, gain map item 2)")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        #expect(gainTags.contains("ImageSize                       : 128x192"), "\(gainTags)")
        let (photo, _, asWritten, otherwise) = try GainMapOrientationEndToEndTests.correlations(scratch.sub("out/gainmap-samsung-hdrgm-irot90.jpg"))
        #expect(photo.width == 256 && photo.height == 384)
        #expect(asWritten > 0.9 && otherwise.allSatisfy { $0 < asWritten - 0.5 }, "\(asWritten) against \(otherwise)")
    }

    @Test("Samples/gainmap-tmap-primary.heic: a pitm naming the tmap item makes its base the photo, the tmap honoured; inspect says so")
    func toneMapAsPrimarySample() throws {
        let source = Tool.samples + "/gainmap-tmap-primary.heic"
        let (_, _, gainTags, entry) = try Self.ultraHDR(source, in: TemporaryDirectory())
        #expect(entry["hdr"] as? String == "Ultra HDR: ISO 21496-1 gain map ('tmap' item 3, gain map item 2)")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        #expect(gainTags.contains("GainMapMax                      : 2"), "\(gainTags)")
        let inspected = try Tool.run(["inspect", source])
        #expect(inspected.stdoutText.contains("    #1                hvc1 384×256, primary\n"), "\(inspected.stdoutText)")
        #expect(inspected.stdoutText.contains("primary           gainmap-tmap-primary.jpg: #1, Ultra HDR with gain map #2"), "\(inspected.stdoutText)")
    }

    /// Apple's codes as heic2jpg remaps them: log2(1 + (H − 1)·L(g)) / log2(H), L the inverse Rec. 709 OETF.
    static func appleRemapped(_ picture: RGBPicture, headroom: Double) -> RGBPicture {
        RGBPicture(width: picture.width, height: picture.height, pixels: picture.pixels.map { code in
            let v = Double(code) / 255
            let linear = v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
            return UInt8((log2(1 + (headroom - 1) * linear) / log2(headroom) * 255).rounded())
        })
    }

    @Test("An Apple gain map: two MPF images; the gain map a gray JPEG at its own size with hdrgm values from the headroom and its codes remapped from Rec. 709 linear gain; the directory names its length; exiftool validates",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func appleGainMap() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), Self.iPhone])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let output = scratch.sub("out/iphone13pro-depth-gainmap.jpg")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["iphone13pro-depth-gainmap.heic"])
        #expect((entry["hdr"] as? String)?.contains("Apple gain map (item 52), headroom 3.48") == true, "\(entry["hdr"] ?? "")")
        let tags = try ExifTool.run(["-s", "-a", "-MPF:all", "-XMP-hdrgm:all", "-XMP-Container:all", output]).stdoutText
        #expect(tags.contains("NumberOfImages                  : 2") && tags.contains("Baseline MP Primary Image"), "\(tags)")
        #expect(tags.contains("Version                         : 1.0"), "the primary says hdrgm:Version: \(tags)")
        let gainMap = try ExifTool.output(["-b", "-MPImage2", output])
        #expect(tags.contains("DirectoryItemLength             : \(gainMap.count)"), "\(tags)")
        let gainTags = try ExifTool.run(["-s", "-XMP-hdrgm:all", "-ImageSize", "-ColorComponents"], on: gainMap, name: "gainmap.jpg")
        for expected in ["GainMapMin                      : 0", "GainMapMax                      : 1.8", "Gamma                           : 1",
                         "OffsetSDR                       : 0", "HDRCapacityMax                  : 1.8", "BaseRenditionIsHDR              : False",
                         "ImageSize                       : 2016x1512", "ColorComponents                 : 1"] {
            #expect(gainTags.contains(expected), "gain map: \(expected) in \(gainTags)")
        }
        // The codes: Apple's Rec. 709-encoded linear gain g becomes log2(1 + (H − 1)·g) / log2(H).
        let source = try #require(Reference.heifAuxiliary(Self.iPhone, 52))
        let remapped = Self.appleRemapped(source, headroom: 3.482202)
        let decoded = try #require(Reference.jpeg(bytes: gainMap)?.picture)
        #expect(decoded.psnr(against: remapped) >= 38, "the gain map's codes: \(decoded.psnr(against: remapped)) dB")
        #expect(decoded.psnr(against: source) < decoded.psnr(against: remapped), "the codes are remapped, not copied")
        let validation = try ExifTool.validationWarnings(of: [UInt8](try #require(FileManager.default.contents(atPath: output))), name: "u.jpg")
        #expect(validation.filter { !$0.contains("Unknown APP2 segment") }.isEmpty, "\(validation)")
        // The primary's pixels are those of the SDR conversion.
        let sdr = try Tool.run(["--hdr", "sdr", "-o", scratch.sub("sdr"), Self.iPhone])
        #expect(sdr.status == 0)
        let sdrPixels = try #require(Reference.jpeg(scratch.sub("sdr/iphone13pro-depth-gainmap.jpg"))?.picture)
        #expect(try #require(Reference.jpeg(output)?.picture).psnr(against: sdrPixels) == 99, "the same SDR pixels")
    }

    @Test("SDR only, and no claim of a gain map, in strip mode and with --hdr sdr",
          .enabled(if: Tool.corpus != nil, "../shared/corpus is not present"))
    func sdrOnly() throws {
        let scratch = TemporaryDirectory()
        for (options, directory) in [(["--metadata", "strip"], "strip"), (["--hdr", "sdr"], "sdr")] {
            let outcome = try Tool.run(options + ["-o", scratch.sub(directory), Self.iPhone])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let bytes = try #require(FileManager.default.contents(atPath: scratch.sub("\(directory)/iphone13pro-depth-gainmap.jpg")))
            for claim in ["hdrgm:", "Container:Directory", "MPF\0", "urn:iso:std:iso:ts:21496"] {
                #expect(bytes.range(of: Data(claim.utf8)) == nil, "\(directory) carries \(claim)")
            }
        }
    }
}
