import Foundation
import H2JContainer
import H2JReferenceDecoders
import H2JSupport
import H2JTestSupport
import Testing

/// HEIF `jpeg` items: written losslessly (the item's own codestream, its tables and scan
/// byte for byte, with heic2jpg's metadata), or, when transforms must turn its pixels,
/// decoded and encoded upright with a warning that says so. Synthetic files built here
/// need no corpus; the two of `../shared/corpus-wide/structure` are checked when present.
@Suite("End to end: JPEG items")
struct JPEGItemEndToEndTests {
    typealias B = BoxBuilder

    /// A HEIF whose primary is JPEG item 1 holding `jpeg`, with `properties` (after `ispe`),
    /// when given an `Exif` item 2 describing it, and with `alpha` a JPEG item 3 of the same
    /// data as its alpha plane.
    static func heif(_ jpeg: [UInt8], width: Int, height: Int, properties: [[UInt8]] = [], exif: [UInt8]? = nil,
                     alpha: Bool = false) -> [UInt8] {
        let ftyp = B.box("ftyp", Array("mif1".utf8) + B.u32(0) + Array("mif1jpeg".utf8))
        let exifItem = exif.map { [0, 0, 0, 0] + $0 }
        func meta(_ offset: Int) -> [UInt8] {
            var locations = [B.Location(id: 1, extents: [(0, UInt64(offset), UInt64(jpeg.count))])]
            if let exifItem { locations.append(B.Location(id: 2, extents: [(0, UInt64(offset + jpeg.count), UInt64(exifItem.count))])) }
            var items: [(Int, String)] = exif == nil ? [(1, "jpeg")] : [(1, "jpeg"), (2, "Exif")]
            var references = exif == nil ? [] : [B.reference("cdsc", from: 2, to: [1])]
            var associations = [(1, Array(1...(1 + properties.count)))]
            var allProperties = [B.ispe(width: width, height: height)] + properties
            if alpha {
                locations.append(B.Location(id: 3, extents: [(0, UInt64(offset), UInt64(jpeg.count))]))
                items.append((3, "jpeg"))
                references.append(B.reference("auxl", from: 3, to: [1]))
                allProperties.append(B.box("auxC", B.fullBox(0) + Array("urn:mpeg:hevc:2015:auxid:1\0".utf8)))
                associations.append((3, [1, allProperties.count]))
            }
            return B.meta(primary: 1, items: items, references: references, properties: allProperties,
                          associations: associations, extraBoxes: [B.iloc(locations)])
        }
        let header = ftyp.count + meta(0).count + 8
        return ftyp + meta(header) + B.box("mdat", jpeg + (exifItem ?? []))
    }

    /// Converts `bytes` (written as `NAME.heif`) with `options`; the report entry and the output path.
    static func convert(_ bytes: [UInt8], in scratch: TemporaryDirectory, _ options: [String] = [])
        throws -> (entry: [String: Any], output: String) {
        let source = scratch.file("item.heif", bytes)
        let outcome = try Tool.run(options + ["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return (try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["item.heif"]), scratch.sub("out/item.jpg"))
    }

    /// The image data (tables, frame, scan) of JPEG `bytes`, as the reference reader finds it.
    static func imageData(_ bytes: [UInt8], in scratch: TemporaryDirectory) throws -> [UInt8] {
        try #require(JPEGSegments.imageData(path: scratch.file("codestream.jpg", bytes)))
    }

    @Test("without transforms the output is the item's codestream, its tables and scan untouched, with the HEIF's EXIF, ICC and the mark")
    func lossless() throws {
        let scratch = TemporaryDirectory()
        let jpeg = try JPEGTestSupport.encode(width: 48, height: 32)
        let icc = [UInt8](repeating: 7, count: 300)
        let bytes = Self.heif(jpeg, width: 48, height: 32, properties: [B.colr(kind: "prof", icc: icc)],
                              exif: EXIFTestTIFF.typical().build().bytes)
        let (entry, output) = try Self.convert(bytes, in: scratch)
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == "jpeg", "\(entry)")
        #expect(entry["warnings"] as? [String] == [], "\(entry)")
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(try #require(JPEGSegments.imageData(path: output)) == (try Self.imageData(jpeg, in: scratch)))
        #expect(try #require(Reference.jpeg(output)).picture.psnr(against: try #require(Reference.jpeg(bytes: jpeg)).picture) == 99)
        let segments = try #require(JPEGSegments(path: output))
        #expect(segments.segments.first?.0 == 0xE0, "JFIF stays first")
        #expect(segments.icc == icc && segments.exifSegments == 1 && segments.hasXMP)
        let tags = try ExifTool.run(["-s", "-s", "-s", "-Orientation#", "-XMP-h2j:SourceName", "-Model", output]).stdoutText
        #expect(tags.split(separator: "\n") == ["1", "item.heif", "iPhone 12 Pro"], "\(tags)")
        #expect(written.count < jpeg.count + 4096)

        // Strip mode: the same image data; the ICC and the mark, no EXIF.
        let stripScratch = TemporaryDirectory()
        let strip = try Self.convert(bytes, in: stripScratch, ["--metadata", "strip"]).output
        #expect(try #require(JPEGSegments.imageData(path: strip)) == (try Self.imageData(jpeg, in: scratch)))
        let stripped = try #require(JPEGSegments(path: strip))
        #expect(stripped.exifSegments == 0 && stripped.icc == icc && stripped.hasXMP)
    }

    @Test("the codestream's own EXIF and ICC are carried when the HEIF has none, its Orientation set to 1")
    func embeddedMetadata() throws {
        let scratch = TemporaryDirectory()
        let tiff = EXIFTestTIFF.typical().build().bytes
        let icc = [UInt8](repeating: 9, count: 200)
        let jpeg = try JPEGTestSupport.encode(width: 16, height: 16, markers: [(0xE1, Array("Exif\0\0".utf8) + tiff)], icc: icc)
        let output = try Self.convert(Self.heif(jpeg, width: 16, height: 16), in: scratch).output
        let segments = try #require(JPEGSegments(path: output))
        #expect(segments.exifSegments == 1 && segments.icc == icc)
        let tags = try ExifTool.run(["-s", "-s", "-s", "-Orientation#", "-Model", output]).stdoutText
        #expect(tags.split(separator: "\n") == ["1", "iPhone 12 Pro"], "\(tags)")
    }

    @Test("a rotation is applied by decoding and encoding again, with a jpeg-reencoded warning: the pixels are the codestream's, turned")
    func rotated() throws {
        let scratch = TemporaryDirectory()
        let (width, height) = (48, 32)
        let jpeg = try JPEGTestSupport.encode(width: width, height: height)
        let bytes = Self.heif(jpeg, width: width, height: height, properties: [B.irot(quarterTurns: 1)])
        let (entry, output) = try Self.convert(bytes, in: scratch)
        #expect(entry["status"] as? String == "converted" && entry["engine"] as? String == "jpeg", "\(entry)")
        #expect(entry["warningCodes"] as? [String] == ["jpeg-reencoded"], "\(entry)")
        #expect((entry["warnings"] as? [String])?.first?.contains("rotation ('irot')") == true, "\(entry)")
        let decoded = try #require(Reference.jpeg(bytes: jpeg)).picture
        // One anticlockwise quarter turn: output (u, v) shows source (width − 1 − v, u).
        let turned = KnownPictures.picture(height, width) { u, v in
            let at = (u * width + (width - 1 - v)) * 3
            return (decoded.pixels[at], decoded.pixels[at + 1], decoded.pixels[at + 2])
        }
        let result = try #require(Reference.jpeg(output)).picture
        try #require((result.width, result.height) == (height, width))
        let ceiling = Reference.jpegCeiling(turned, components: 3)
        #expect(result.psnr(against: turned) >= ceiling - 0.5, "\(result.psnr(against: turned)) dB, ceiling \(ceiling)")
        let wrongWay = KnownPictures.picture(height, width) { u, v in
            let at = ((height - 1 - u) * width + v) * 3
            return (decoded.pixels[at], decoded.pixels[at + 1], decoded.pixels[at + 2])
        }
        #expect(result.psnr(against: wrongWay) < ceiling - 3)
    }

    @Test("an alpha plane, which a copied codestream cannot apply, is named in an alpha-not-applied warning")
    func alpha() throws {
        let jpeg = try JPEGTestSupport.encode(width: 16, height: 16)
        let (entry, _) = try Self.convert(Self.heif(jpeg, width: 16, height: 16, alpha: true), in: TemporaryDirectory())
        #expect(entry["status"] as? String == "converted", "\(entry)")
        #expect((entry["warningCodes"] as? [String])?.contains("alpha-not-applied") == true, "\(entry)")
        // `--aux alpha` writes the plane: a JPEG item too, decoded and written as its luma.
        let scratch = TemporaryDirectory()
        let (withAlpha, _) = try Self.convert(Self.heif(jpeg, width: 16, height: 16, alpha: true), in: scratch, ["--aux", "alpha"])
        #expect(withAlpha["status"] as? String == "converted", "\(withAlpha)")
        #expect(try #require(Reference.jpeg(scratch.sub("out/item.alpha.jpg"))).components == 1)
    }

    @Test("an 'ispe' that is not the codestream's size is named; the codestream's size is written")
    func declaredSize() throws {
        let jpeg = try JPEGTestSupport.encode(width: 16, height: 8)
        let (entry, _) = try Self.convert(Self.heif(jpeg, width: 20, height: 8), in: TemporaryDirectory())
        #expect(entry["width"] as? Int == 16 && entry["warningCodes"] as? [String] == ["declared-size-mismatch"], "\(entry)")
        #expect((entry["warnings"] as? [String])?.first == "item 1's 'ispe' says 20×8 but its JPEG codestream is 16×8", "\(entry)")
    }

    @Test("an item whose data is no JPEG fails with a reason")
    func notJPEG() throws {
        let scratch = TemporaryDirectory()
        let source = scratch.file("item.heif", Self.heif(Array(repeating: 0x55, count: 64), width: 8, height: 8))
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), source])
        #expect(outcome.status == 1)
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource["item.heif"])
        #expect(entry["errorCode"] as? String == "corrupt-jpeg", "\(entry)")
        #expect(entry["reason"] as? String == "JPEG item 1: its data is not a JPEG with a readable header (SOI, segments, frame header)")
    }

    @Test("the JPEG items of corpus-wide convert losslessly: image data byte for byte, pixels identical to libjpeg's decode of the codestream",
          .enabled(if: Tool.corpusWide != nil, "../shared/corpus-wide is not present"),
          arguments: ["kimageformats-jpeg-in-heif.heif", "libheif-fuzz-jpeg32.heif"])
    func corpus(_ file: String) throws {
        let path = try #require(Tool.corpusWide) + "/structure/" + file
        try #require(FileManager.default.fileExists(atPath: path), "\(file) is missing from corpus-wide/structure")
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[file])
        #expect(entry["engine"] as? String == "jpeg" && entry["warnings"] as? [String] == [], "\(entry)")
        let source = MemoryByteSource([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let structure = try HEIFStructure.read(from: source)
        let codestream = try structure.jpegCodestream(of: 1, from: source)
        let output = scratch.sub("out/" + (file as NSString).deletingPathExtension + ".jpg")
        #expect(try #require(JPEGSegments.imageData(path: output)) == (try Self.imageData(codestream, in: scratch)))
        #expect(try #require(Reference.jpeg(output)).picture.psnr(against: try #require(Reference.jpeg(bytes: codestream)).picture) == 99)
        if let icc = structure.colour(of: 1).icc {
            #expect(try #require(JPEGSegments(path: output)).icc == icc, "the colr ICC profile is carried")
        }
        let text = try Tool.run(["inspect", path]).stdoutText
        #expect(text.contains("bit depth         8") && text.contains("chroma            4:2:0"), "\(text)")
    }
}
