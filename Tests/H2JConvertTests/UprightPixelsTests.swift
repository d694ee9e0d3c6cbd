import Testing
@testable import H2JContainer
@testable import H2JConvert
import H2JSupport

/// What libheif 1.15 leaves undone for a mirrored image of more than 8 bits, done here:
/// the decoded canvas placed upright (`UprightPixels`); and a gain map decoded as RGB
/// whose channels are equal written as gray (`EqualChannels`).
@Suite("Pixels placed upright by an item's transforms; RGB rows with equal channels")
struct UprightPixelsTests {
    /// A 3×2 gray canvas:  1 2 3
    ///                     4 5 6
    static let canvas: [UInt8] = [1, 2, 3, 4, 5, 6]

    static func placed(_ transforms: [ImageTransform], canvas: [UInt8] = canvas, components: Int = 1) throws -> UprightPixels {
        try UprightPixels(canvas: canvas, width: 3, height: 2, components: components, transforms: transforms)
    }

    @Test("irot turns anticlockwise, imir 0 exchanges top and bottom, 1 left and right, in the order given; clap crops")
    func transforms() throws {
        #expect(try Self.placed([]).pixels == Self.canvas)
        let turned = try Self.placed([.rotation(quarterTurnsAnticlockwise: 1)])
        #expect(turned.width == 2 && turned.height == 3 && turned.pixels == [3, 6, 2, 5, 1, 4])
        #expect(try Self.placed([.mirror(.vertical)]).pixels == [4, 5, 6, 1, 2, 3])
        #expect(try Self.placed([.mirror(.horizontal)]).pixels == [3, 2, 1, 6, 5, 4])
        // The oriented gain-map file's order: a quarter turn, then top and bottom exchanged.
        #expect(try Self.placed([.rotation(quarterTurnsAnticlockwise: 1), .mirror(.vertical)]).pixels == [1, 4, 2, 5, 3, 6])
        #expect(try Self.placed([.mirror(.vertical), .rotation(quarterTurnsAnticlockwise: 1)]).pixels == [6, 3, 5, 2, 4, 1])
        let aperture = CleanAperture(widthNumerator: 1, widthDenominator: 1, heightNumerator: 2, heightDenominator: 1,
                                     horizontalOffsetNumerator: 1, horizontalOffsetDenominator: 1,
                                     verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)
        let cropped = try Self.placed([.cleanAperture(aperture)])
        #expect(cropped.width == 1 && cropped.height == 2 && cropped.pixels == [3, 6])
    }

    @Test("A canvas that does not fit fails as corrupt-container, never unclassified")
    func mismatchIsCoded() {
        do {
            _ = try Self.placed([], canvas: [1, 2, 3])
            Issue.record("a 3-byte canvas for 3×2 was accepted")
        } catch {
            #expect(ErrorCode(classifying: error) == .corruptContainer, "\(error)")
        }
    }

    @Test("Every component of a pixel moves with it")
    func components() throws {
        func rgb(_ gray: [UInt8]) -> [UInt8] { gray.flatMap { (value: UInt8) -> [UInt8] in [value, value + 10, value + 20] } }
        let turned = try Self.placed([.rotation(quarterTurnsAnticlockwise: 3)], canvas: rgb(Self.canvas), components: 3)
        let expected = rgb([4, 1, 5, 2, 6, 3])
        #expect(turned.pixels == expected)
    }

    @Test("A canvas of another length, or a crop outside it, is refused")
    func refused() {
        #expect(throws: UprightPixels.Mismatch.self) { try Self.placed([], canvas: [1, 2, 3]) }
        let outside = CleanAperture(widthNumerator: 1, widthDenominator: 1, heightNumerator: 2, heightDenominator: 1,
                                    horizontalOffsetNumerator: 100, horizontalOffsetDenominator: 1,
                                    verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)
        #expect(throws: UprightPixels.Mismatch.self) { try Self.placed([.cleanAperture(outside)]) }
    }

    @Test("RGB rows are gray only when R = G = B at every pixel (the stride's padding is not looked at); their first channel is the gray")
    func equalChannels() {
        let gray: [UInt8] = [7, 7, 7, 9, 9, 9, 0xEE, 5, 5, 5, 200, 200, 200, 0xEE]
        let differs: [UInt8] = [7, 7, 7, 9, 9, 9, 0xEE, 5, 5, 5, 200, 201, 200, 0xEE]
        gray.withUnsafeBufferPointer { rows in
            #expect(EqualChannels.hold(rows.baseAddress!, stride: 7, count: 2, width: 2))
            #expect(EqualChannels.first(rows.baseAddress!, stride: 7, count: 2, width: 2) == [7, 9, 5, 200])
        }
        differs.withUnsafeBufferPointer { rows in
            #expect(!EqualChannels.hold(rows.baseAddress!, stride: 7, count: 2, width: 2))
            #expect(EqualChannels.hold(rows.baseAddress!, stride: 7, count: 1, width: 2), "the first row alone is gray")
        }
    }
}
