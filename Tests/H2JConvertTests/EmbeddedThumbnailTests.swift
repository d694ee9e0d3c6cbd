import H2JSupport
import Testing
@testable import H2JConvert

/// `--thumbnail`'s letterbox check: flat bars along both of two opposite edges.
@Suite("Embedded thumbnail: letterbox detection")
struct EmbeddedThumbnailTests {
    /// A 160×120 RGB picture of a busy pattern, with black bars `bar` rows deep at the
    /// top and bottom (or columns at the left and right).
    static func picture(bar: Int, columns: Bool = false, onlyOneSide: Bool = false) throws -> Raster {
        let raster = try #require(Raster(width: 160, height: 120, components: 3))
        for y in 0..<120 {
            for x in 0..<160 {
                let edge = columns ? x : y, length = columns ? 160 : 120
                let inBar = edge < bar || (!onlyOneSide && edge >= length - bar)
                for c in 0..<3 { raster.pixels[(y * 160 + x) * 3 + c] = inBar ? 2 : UInt8((x * 7 + y * 13 + c * 50) % 256) }
            }
        }
        return raster
    }

    @Test("Bars at top and bottom, or left and right, are a letterbox; one bar, or none, is not")
    func letterbox() throws {
        #expect(EmbeddedThumbnail.letterboxed(try Self.picture(bar: 15)))
        #expect(EmbeddedThumbnail.letterboxed(try Self.picture(bar: 20, columns: true)))
        #expect(!EmbeddedThumbnail.letterboxed(try Self.picture(bar: 0)))
        #expect(!EmbeddedThumbnail.letterboxed(try Self.picture(bar: 15, onlyOneSide: true)))
    }
}
