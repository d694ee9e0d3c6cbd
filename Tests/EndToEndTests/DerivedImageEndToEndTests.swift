import Foundation
import H2JReferenceDecoders
import H2JTestSupport
import Testing

/// Derived images heic2jpg composes itself (issue #21, acceptance b): the derived samples
/// and the overlay sample's second image, each against a reference composed here from
/// libheif 1.15's decodes of the file's coded (hidden) items, so neither libheif's
/// composition (which 1.15 lacks or gets wrong) nor heic2jpg's is the reference.
/// `Scripts/derived-check` compares the same outputs with libheif 1.23.
@Suite("End to end: derived images composed by heic2jpg")
struct DerivedImageEndToEndTests {
    /// The converted image of `sample` whose report item is `item`, decoded by libjpeg,
    /// and the report's engine for the primary.
    static func converted(_ sample: String, item: Int) throws -> (picture: RGBPicture, engine: String?) {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["-o", scratch.sub("out"), "--report", scratch.sub("r.jsonl"), Tool.samples + "/" + sample])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let entry = try #require(try ReportFile(scratch.sub("r.jsonl")).bySource[sample])
        #expect(entry["warningCodes"] as? [String] == [], "\(entry)")
        let output = try #require((entry["outputs"] as? [[String: Any]])?.first { $0["item"] as? Int == item }, "\(entry)")
        let path = try #require(output["path"] as? String)
        let decoded = try #require(Reference.jpeg(path))
        return (decoded.picture, entry["engine"] as? String)
    }

    /// libheif 1.15's decode of coded item `id` of `sample`, its alpha flattened onto `background`.
    static func item(_ sample: String, _ id: UInt32, background: (UInt8, UInt8, UInt8) = (255, 255, 255)) throws -> RGBPicture {
        try #require(Reference.heifHiddenItem(Tool.samples + "/" + sample, id, background: background),
                     "libheif decodes item \(id) of \(sample)")
    }

    /// `got` against `reference`: at least the acceptance's 34 dB, and within 0.5 dB of
    /// what a plain libjpeg round trip of the reference keeps (4:2:0 at quality 90 costs
    /// these grainy pictures about 36 dB), which a layer one pixel off would not reach.
    static func check(_ got: RGBPicture, _ reference: RGBPicture) {
        let psnr = got.psnr(against: reference), ceiling = Reference.jpegCeiling(reference, components: 3)
        #expect(psnr >= 34 && psnr >= ceiling - 0.5, "\(psnr) dB; a libjpeg round trip keeps \(ceiling) dB")
    }

    /// A `width` × `height` picture of one colour.
    static func canvas(_ width: Int, _ height: Int, _ colour: [UInt8]) -> RGBPicture {
        RGBPicture(width: width, height: height, pixels: (0..<(width * height)).flatMap { _ in colour })
    }

    /// `layer` placed on `canvas` with its top-left at (`x`, `y`), clipped to the canvas.
    static func placed(_ layer: RGBPicture, on canvas: RGBPicture, x: Int, y: Int) -> RGBPicture {
        var pixels = canvas.pixels
        for ly in 0..<layer.height where (0..<canvas.height).contains(ly + y) {
            for lx in 0..<layer.width where (0..<canvas.width).contains(lx + x) {
                for c in 0..<3 { pixels[((ly + y) * canvas.width + lx + x) * 3 + c] = layer.pixels[(ly * layer.width + lx) * 3 + c] }
            }
        }
        return RGBPicture(width: canvas.width, height: canvas.height, pixels: pixels)
    }

    /// The `width` × `height` part of `picture` at (`x`, `y`).
    static func cropped(_ picture: RGBPicture, x: Int, y: Int, width: Int, height: Int) -> RGBPicture {
        var pixels: [UInt8] = []
        for row in y..<(y + height) {
            let start: Int = (row * picture.width + x) * 3
            pixels += picture.pixels[start..<(start + width * 3)]
        }
        return RGBPicture(width: width, height: height, pixels: pixels)
    }

    @Test("An overlay with negative and off-canvas offsets: its fill, then two opaque layers, clipped")
    func overlay() throws {
        let sample = "overlay-negative-offsets.heic"
        let (got, engine) = try Self.converted(sample, item: 3)
        #expect(engine == "derived")
        // The fill, 16-bit (4096, 8192, 24576) to 8 bits; layer 1 at (-64, -48), layer 2 at (176, 120).
        var reference = Self.canvas(320, 224, [16, 32, 96])
        reference = Self.placed(try Self.item(sample, 1), on: reference, x: -64, y: -48)
        reference = Self.placed(try Self.item(sample, 2), on: reference, x: 176, y: 120)
        try #require(got.width == 320 && got.height == 224)
        Self.check(got, reference)
    }

    @Test("An iden (clap) of an iden (irot 90): turned, then cropped")
    func idenChain() throws {
        let sample = "iden-chain-irot-clap.heic"
        let (got, engine) = try Self.converted(sample, item: 3)
        #expect(engine == "derived")
        // 256×192 turned a quarter anticlockwise is 192×256; its centred 160×224 starts at (16, 16).
        let reference = Self.cropped(try Self.item(sample, 1).rotated(quarterTurns: 1), x: 16, y: 16, width: 160, height: 224)
        try #require(got.width == 160 && got.height == 224)
        Self.check(got, reference)
    }

    @Test("A grid of iden tiles, each mirrored left to right by its iden")
    func gridOfIdens() throws {
        let sample = "grid-of-iden-tiles.heic"
        let (got, engine) = try Self.converted(sample, item: 13)
        #expect(engine == "derived")
        var reference = Self.canvas(384, 256, [0, 0, 0])
        for (index, tile) in [UInt32(1), 3, 5, 7, 9, 11].enumerated() {
            reference = Self.placed(try Self.item(sample, tile).mirrored(axis: 1), on: reference, x: index % 3 * 128, y: index / 3 * 128)
        }
        try #require(got.width == 384 && got.height == 256)
        Self.check(got, reference)
    }

    @Test("The overlay whose layer with alpha lies at x = -200 (which crashes libheif 1.15): the layer blended onto the black canvas")
    func alphaLayer() throws {
        let sample = "overlay-alpha-negative-offset.heic"
        let (got, _) = try Self.converted(sample, item: 4)
        // Blended onto black is libheif's flattening of the layer onto black.
        let reference = Self.placed(try Self.item(sample, 2, background: (0, 0, 0)), on: Self.canvas(64, 64, [0, 0, 0]), x: -200, y: 0)
        try #require(got.width == 64 && got.height == 64)
        Self.check(got, reference)
    }
}
