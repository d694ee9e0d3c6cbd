import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// PQ and HLG sources are tone-mapped to SDR (BT.2408 reference white at SDR white,
/// highlights rolled off, BT.2020 into Display P3 or sRGB), and in keep mode get an
/// Ultra HDR gain map computed from both renditions. The samples are ramps with flat
/// patches of known luminance (Samples/README.md); `Scripts/hdr-tone-check` decodes the
/// HDR rendition with libultrahdr.
@Suite("End to end: PQ and HLG tone mapping")
struct ToneMappingEndToEndTests {
    /// The patches' luminances in cd/m², left to right, 32 pixels wide in rows 64–127.
    static let patches: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 203, 400, 1000, 4000]
    static let displayP3Luminance = [0.2290, 0.6917, 0.0793]

    /// Mean linear luminance (sRGB transfer, `weights`) of a rectangle of `picture`.
    static func luminance(_ picture: RGBPicture, x: Range<Int>, y: Range<Int>, weights: [Double]) -> Double {
        var sum = 0.0
        for row in y {
            for column in x {
                for c in 0..<3 {
                    let v = Double(picture.pixels[(row * picture.width + column) * 3 + c]) / 255
                    sum += weights[c] * (v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4))
                }
            }
        }
        return sum / Double(x.count * y.count)
    }

    /// Converts a sample with `options`; the output's picture, its tags and its report entry.
    static func convert(_ sample: String, _ options: [String]) throws -> (picture: RGBPicture, tags: String, entry: [String: Any]) {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(options + ["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), Tool.samples + "/\(sample).heic"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let output = scratch.sub("out/\(sample).jpg")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["\(sample).heic"])
        let tags = try ExifTool.run(["-s", "-MPF:NumberOfImages", "-XMP-hdrgm:all", "-ICC_Profile:ProfileDescription", output]).stdoutText
        return (try #require(Reference.jpeg(output)?.picture), tags, entry)
    }

    /// The SDR rendition: the ramp never darkens left to right, the patches rise in
    /// order, and reference white lands within 3 % of SDR white.
    static func checkSDR(_ picture: RGBPicture, weights: [Double], _ name: String) {
        var previous = -1.0
        for x in 0..<picture.width {
            let level = luminance(picture, x: x..<(x + 1), y: 8..<56, weights: weights)
            #expect(level >= previous - 0.002, "\(name): the ramp darkens at x = \(x) (\(previous) → \(level))")
            previous = max(previous, level)
        }
        let levels = patches.indices.map { luminance(picture, x: (32 * $0 + 4)..<(32 * $0 + 28), y: 72..<120, weights: weights) }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 }, "\(name): patches out of order: \(levels)")
        #expect(abs(levels[10] - 1) <= 0.03, "\(name): reference white (203 cd/m²) at \(levels[10]) of SDR white")
        #expect(abs(levels[7] / levels[10] - 20.0 / 203) < 0.01, "\(name): 20 cd/m² keeps its level below reference white: \(levels[7])")
    }

    @Test("Keep mode: an Ultra HDR JPEG (two MPF images, hdrgm XMP), Display P3, the mapping in the report, nothing left out",
          arguments: [("hdr-pq-ramp", "PQ (SMPTE ST 2084)"), ("hdr-hlg-ramp", "HLG (ARIB STD-B67)")])
    func ultraHDR(sample: String, transfer: String) throws {
        let (picture, tags, entry) = try Self.convert(sample, [])
        let hdr = entry["hdr"] as? String ?? ""
        #expect(hdr.hasPrefix("Ultra HDR: gain map computed") && hdr.contains(transfer + ", BT.2020 → Display P3"), "\(hdr)")
        #expect(tags.contains("NumberOfImages                  : 2") && tags.contains("Version                         : 1.0"), "\(tags)")
        #expect(tags.contains("ProfileDescription              : Display P3"), "\(tags)")
        #expect((entry["warningCodes"] as? [String] ?? []).isEmpty, "\(entry["warnings"] ?? "")")
        Self.checkSDR(picture, weights: Self.displayP3Luminance, sample)
    }

    @Test("--hdr sdr: the same SDR pixels, no gain map and no hdrgm claim, the HDR rendition left out as asked",
          arguments: ["hdr-pq-ramp", "hdr-hlg-ramp"])
    func sdrOnly(sample: String) throws {
        let (picture, tags, entry) = try Self.convert(sample, ["--hdr", "sdr"])
        #expect((entry["hdr"] as? String ?? "").hasPrefix("SDR only, tone-mapped: "), "\(entry)")
        #expect(!tags.contains("NumberOfImages") && !tags.contains("Version"), "\(tags)")
        let warnings = entry["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("left out as asked: the primary's HDR rendition") }, "\(warnings)")
        Self.checkSDR(picture, weights: Self.displayP3Luminance, sample)
    }

    @Test("Strip mode: SDR only, still Display P3 with its profile (the colour is part of the pixels)",
          arguments: ["hdr-pq-ramp", "hdr-hlg-ramp"])
    func strip(sample: String) throws {
        let (picture, tags, entry) = try Self.convert(sample, ["--metadata", "strip"])
        #expect((entry["hdr"] as? String ?? "").hasPrefix("SDR only, tone-mapped: "), "\(entry)")
        #expect(tags.contains("ProfileDescription              : Display P3") && !tags.contains("NumberOfImages"), "\(tags)")
        Self.checkSDR(picture, weights: Self.displayP3Luminance, sample)
    }

    @Test("A 10-bit PQ image turned and mirrored (irot 90, imir axis 1), which libheif 1.15 cannot mirror above 8 bits, comes out upright: the plain sample's output turned and mirrored")
    func mirroredHDR() throws {
        let scratch = TemporaryDirectory()
        let mirrored = scratch.sub("pq-mirrored.heic")
        let script = Tool.packageRoot.appendingPathComponent("Scripts/heif_add_irot.py").path
        let added = try ChildProcess.run("/usr/bin/python3", [script, Tool.samples + "/hdr-pq-ramp.heic", "--angle", "90", "--mirror", "1",
                                                              "-o", mirrored])
        #expect(added.status == 0, "\(added.stderr)")
        let outcome = try Tool.run(["-o", scratch.sub("out"), mirrored, Tool.samples + "/hdr-pq-ramp.heic"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let turned = try #require(Reference.jpeg(scratch.sub("out/pq-mirrored.jpg"))?.picture)
        let plain = try #require(Reference.jpeg(scratch.sub("out/hdr-pq-ramp.jpg"))?.picture)
        #expect(turned.width == 256 && turned.height == 448)
        let expected = plain.rotated(quarterTurns: 1).mirrored(axis: 1)
        #expect(turned.psnr(against: expected) >= 45, "\(turned.psnr(against: expected)) dB")
        #expect(turned.psnr(against: plain.rotated(quarterTurns: 1)) < 30, "the mirror was applied")
    }
}
