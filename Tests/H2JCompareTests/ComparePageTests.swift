import H2JTestSupport
import Testing
@testable import H2JCompare
@testable import H2JJob
@testable import H2JMetadata

/// The parts of `compare --html` that need no worker: the tag table's fates, the parent's
/// check of a worker's pictures, the page's script and policy.
@Suite("compare --html: tag table, picture check, script policy")
struct ComparePageTests {
    static func tag(_ name: String, _ value: String, _ category: MetadataTag.Category? = nil) -> MetadataTag {
        MetadataTag(family: "EXIF", group: "IFD0", name: name, value: value, category: category)
    }

    @Test("Each output's value of each tag: same, changed, dropped, added or absent; drops counted by category")
    func tagTable() {
        let source = [Self.tag("Make", "Apple"), Self.tag("Orientation", "6"), Self.tag("GPSLatitude", "47/1", .location)]
        let keep = [Self.tag("Make", "Apple"), Self.tag("Orientation", "1"), Self.tag("GPSLatitude", "47/1", .location),
                    Self.tag("ImageUniqueID", "ABC", .identifying)]
        let strip: [MetadataTag] = []
        let table = TagTable(source: source, outputs: [keep, strip])
        #expect(table.rows.map(\.tag.name) == ["Make", "Orientation", "GPSLatitude", "ImageUniqueID"], "the source's order, then additions")
        #expect(table.rows.map { $0.outputs[0].fate } == [.same, .changed, .same, .added])
        #expect(table.rows.map { $0.outputs[1].fate } == [.dropped, .dropped, .dropped, .absent])
        #expect(table.rows[1].outputs[0].value == "1" && table.rows[3].source == nil)
        #expect(table.dropped(by: 0).isEmpty)
        #expect(table.dropped(by: 1).map(\.0) == [.location] && table.dropped(by: 1).map(\.1) == [1])
    }

    static func jpeg(_ width: Int, _ height: Int) throws -> [UInt8] { try JPEGTestSupport.encode(width: width, height: height) }

    static func pictures(rect: PictureRect = PictureRect(x: 10, y: 20, width: 192, height: 192),
                         crop: (Int, Int) = (192, 192), heat: (Int, Int) = (200, 150)) throws -> ComparisonPictures {
        let output = ComparisonPictures.Output(preview: try jpeg(400, 300), crop: try jpeg(crop.0, crop.1), sourceCrop: try jpeg(192, 192),
                                               heatMap: try jpeg(heat.0, heat.1), cropRect: rect, meanDifference: 1, maxDifference: 4)
        return ComparisonPictures(source: try jpeg(400, 300), outputs: [output])
    }

    @Test("The parent takes a worker's pictures only when each is a JPEG of its due size and the crop lies inside its output")
    func pictureCheck() throws {
        try PictureCheck.check(try Self.pictures(), source: (4032, 3024), outputs: [(4032, 3024)])
        #expect(throws: CompareError.self, "a crop outside its output") {
            try PictureCheck.check(try Self.pictures(rect: PictureRect(x: 3900, y: 0, width: 192, height: 192)), source: (4032, 3024), outputs: [(4032, 3024)])
        }
        #expect(throws: CompareError.self, "a crop of another size than its rectangle") {
            try PictureCheck.check(try Self.pictures(crop: (193, 192)), source: (4032, 3024), outputs: [(4032, 3024)])
        }
        #expect(throws: CompareError.self, "a heat map of the preview's size") {
            try PictureCheck.check(try Self.pictures(heat: (400, 300)), source: (4032, 3024), outputs: [(4032, 3024)])
        }
        #expect(throws: CompareError.self, "pictures of a source of another size") {
            try PictureCheck.check(try Self.pictures(), source: (3024, 4032), outputs: [(4032, 3024)])
        }
        var notJPEG = try Self.pictures()
        notJPEG = ComparisonPictures(source: Array("<script>alert(1)</script>".utf8), outputs: notJPEG.outputs)
        #expect(throws: CompareError.self, "bytes that are not a JPEG") {
            try PictureCheck.check(notJPEG, source: (4032, 3024), outputs: [(4032, 3024)])
        }
        #expect(throws: CompareError.self, "pictures for another number of outputs") {
            try PictureCheck.check(try Self.pictures(), source: (4032, 3024), outputs: [(4032, 3024), (4032, 3024)])
        }
    }

    @Test("Fitting: the longest side to the box, never enlarged, never empty")
    func fitted() {
        #expect(ComparisonPictures.fitted(width: 4032, height: 3024) == (400, 300))
        #expect(ComparisonPictures.fitted(width: 3024, height: 4032, side: 200) == (150, 200))
        #expect(ComparisonPictures.fitted(width: 300, height: 10) == (300, 10))
        #expect(ComparisonPictures.fitted(width: 100_000, height: 3) == (400, 1))
    }

    @Test("The policy names the script's own hash: a changed script would be refused by the browser")
    func policy() {
        let policy = ComparePageScript.contentSecurityPolicy
        #expect(policy.hasPrefix("default-src 'none'; "))
        #expect(policy.contains("script-src 'sha256-") && policy.hasSuffix("='"), "\(policy)")
        let page = ComparePage.head(files: 1, options: .init()) + ComparePage.tail([], columns: [])
        #expect(page.contains("<script>\(ComparePageScript.script)</script>"), "the script exactly as hashed")
    }
}
