import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

@Suite("Typed item properties: ispe, irot, imir, clap, colr, pixi, auxC, ipma essential flags")
struct ItemPropertiesTests {
    typealias B = BoxBuilder

    /// Item 1 with `properties` associated in order (index i+1 for properties[i]); bit 0x80 marks essential.
    static func structure(_ properties: [[UInt8]], essential: Set<Int> = []) throws(HEIFError) -> HEIFStructure {
        let indices = properties.indices.map { $0 + 1 | (essential.contains($0 + 1) ? 0x80 : 0) }
        let file = B.ftyp + B.meta(primary: 1, items: [(1, "hvc1")], properties: properties, associations: [(1, indices)])
        return try HEIFStructure.read(from: MemoryByteSource(file))
    }

    static func property(_ type: String, _ payload: [UInt8]) -> [UInt8] { B.box(type, payload) }

    @Test("ispe gives the size; a short ispe counts as absent")
    func imageSize() throws {
        #expect(try Self.structure([B.ispe(width: 4032, height: 3024)]).imageSize(of: 1) == ImageSize(width: 4032, height: 3024))
        #expect(try Self.structure([B.ispe(width: 0xFFFF_FFFF, height: 1)]).imageSize(of: 1)?.width == 0xFFFF_FFFF)
        #expect(try Self.structure([Self.property("ispe", B.fullBox(0) + B.u32(5))]).imageSize(of: 1) == nil)
        #expect(try Self.structure([]).imageSize(of: 1) == nil)
    }

    @Test("Transforms come in ipma order; other properties are skipped")
    func transformOrder() throws {
        let s = try Self.structure([B.clap(width: (10, 1), height: (8, 1), horizontalOffset: (-1, 2), verticalOffset: (0, 1)),
                                    B.ispe(width: 12, height: 9), B.irot(quarterTurns: 3), B.imir(axis: 1), B.irot(quarterTurns: 0xFD)])
        #expect(try s.transforms(of: 1) == [
            .cleanAperture(CleanAperture(widthNumerator: 10, widthDenominator: 1, heightNumerator: 8, heightDenominator: 1,
                                         horizontalOffsetNumerator: -1, horizontalOffsetDenominator: 2,
                                         verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)),
            .rotation(quarterTurnsAnticlockwise: 3), .mirror(.horizontal), .rotation(quarterTurnsAnticlockwise: 1),
        ])
        #expect(try Self.structure([B.imir(axis: 0)]).transforms(of: 1) == [.mirror(.vertical)])
        #expect(try Self.structure([B.imir(axis: 0xFE)]).transforms(of: 1) == [.mirror(.vertical)])
        #expect(try Self.structure([B.ispe(width: 1, height: 1)]).transforms(of: 1).isEmpty)
    }

    @Test("Malformed transform properties throw, naming the box")
    func malformedTransforms() throws {
        #expect(throws: HEIFError.malformedBox("irot", reason: "no angle byte")) { try Self.structure([Self.property("irot", [])]).transforms(of: 1) }
        #expect(throws: HEIFError.malformedBox("imir", reason: "no axis byte")) { try Self.structure([Self.property("imir", [])]).transforms(of: 1) }
        #expect(throws: HEIFError.malformedBox("clap", reason: "31 bytes, 32 needed")) {
            try Self.structure([Self.property("clap", [UInt8](repeating: 1, count: 31))]).transforms(of: 1)
        }
        let huge = B.clap(width: (0x8000_0000, 1), height: (1, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1))
        #expect(throws: HEIFError.malformedBox("clap", reason: "value 2147483648 is above 2147483647")) {
            try Self.structure([huge]).transforms(of: 1)
        }
    }

    /// Expected crops come from heif-convert (libheif 1.15.1-1+deb12u1) on a 37×29 image
    /// patched with each `clap`: (width, height, hOffset, vOffset) → (x, y, width, height).
    static let libheifCrops: [((Int, Int), (Int, Int), (Int, Int), (Int, Int), (Int, Int, Int, Int)?)] = [
        ((37, 1), (29, 1), (0, 1), (0, 1), (0, 0, 37, 29)),
        ((20, 1), (10, 1), (0, 1), (0, 1), (8, 10, 20, 10)),      // left truncates 8.5, top rounds 9.5
        ((21, 1), (11, 1), (0, 1), (0, 1), (8, 9, 21, 11)),
        ((20, 1), (10, 1), (-5, 1), (-3, 1), (3, 7, 20, 10)),
        ((20, 1), (10, 1), (-5, 2), (-3, 2), (6, 8, 20, 10)),
        ((19, 1), (13, 1), (3, 2), (-7, 2), (10, 5, 19, 13)),
        ((33, 2), (41, 3), (1, 3), (-1, 3), (10, 7, 17, 14)),
        ((7, 2), (9, 4), (-17, 4), (5, 3), (12, 15, 4, 2)),
        ((36, 1), (28, 1), (1, 2), (1, 2), (1, 1, 36, 28)),
        ((10, 1), (10, 1), (-14, 1), (-10, 1), (0, 0, 10, 10)),   // left −0.5 truncates to 0
        ((10, 1), (10, 1), (14, 1), (10, 1), (27, 20, 10, 9)),    // bottom clamped
        ((50, 1), (50, 1), (0, 1), (0, 1), (0, 0, 37, 29)),       // larger than the image: clamped
        ((10, 1), (10, 1), (30, 1), (0, 1), nil),                 // entirely right of the image
        // Large values: libheif's 32-bit Fraction reduction and wrapping.
        ((131072, 1), (65536, 96), (-2_147_483_648, 2_147_483_647), (34, 2_147_483_647), (0, 0, 37, 29)),
        ((131072, 2_147_483_647), (2_147_483_647, 65536), (-867_293_298, 987_302_595), (887_339, 65536), (0, 0, 1, 29)),
        ((131072, 131072), (65536, 845_943), (26, 65536), (-30, 248_039), nil),
    ]

    @Test("clap crops round exactly as libheif 1.15 does", arguments: libheifCrops.indices)
    func cleanApertureRounding(case index: Int) {
        let (width, height, horizontal, vertical, expected) = Self.libheifCrops[index]
        let clap = CleanAperture(widthNumerator: width.0, widthDenominator: width.1, heightNumerator: height.0, heightDenominator: height.1,
                                 horizontalOffsetNumerator: horizontal.0, horizontalOffsetDenominator: horizontal.1,
                                 verticalOffsetNumerator: vertical.0, verticalOffsetDenominator: vertical.1)
        let crop = clap.cropRect(imageWidth: 37, imageHeight: 29)
        #expect(crop.map { [$0.x, $0.y, $0.width, $0.height] } == expected.map { [$0.0, $0.1, $0.2, $0.3] })
    }

    @Test("clap with a zero denominator, or an unusable image size, has no crop")
    func cleanApertureInvalid() throws {
        let zero = try CleanAperture.parse(Array(B.clap(width: (10, 0), height: (8, 1), horizontalOffset: (0, 1), verticalOffset: (0, 1)).dropFirst(8)))
        #expect(zero.widthDenominator == 0)
        #expect(zero.cropRect(imageWidth: 37, imageHeight: 29) == nil)
        let offsetZero = CleanAperture(widthNumerator: 10, widthDenominator: 1, heightNumerator: 8, heightDenominator: 1,
                                       horizontalOffsetNumerator: 0, horizontalOffsetDenominator: 1,
                                       verticalOffsetNumerator: 3, verticalOffsetDenominator: 0)
        #expect(offsetZero.cropRect(imageWidth: 37, imageHeight: 29) == nil)
        let plain = CleanAperture(widthNumerator: 10, widthDenominator: 1, heightNumerator: 8, heightDenominator: 1,
                                  horizontalOffsetNumerator: 0, horizontalOffsetDenominator: 1,
                                  verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)
        #expect(plain.cropRect(imageWidth: 0, imageHeight: 29) == nil)
        #expect(plain.cropRect(imageWidth: 1 << 40, imageHeight: 29) == nil)
        let outOfRange = CleanAperture(widthNumerator: 1 << 40, widthDenominator: 1, heightNumerator: 8, heightDenominator: 1,
                                       horizontalOffsetNumerator: 0, horizontalOffsetDenominator: 1,
                                       verticalOffsetNumerator: 0, verticalOffsetDenominator: 1)
        #expect(outOfRange.cropRect(imageWidth: 37, imageHeight: 29) == nil)
    }

    @Test("colr: the first nclx and the first ICC profile (prof or rICC)")
    func colour() throws {
        let s = try Self.structure([B.colr(kind: "rICC", icc: [1, 2, 3]), B.colr(primaries: 12, transfer: 13, matrix: 6, fullRange: true),
                                    B.colr(kind: "prof", icc: [9]), B.colr(primaries: 1, transfer: 1, matrix: 1, fullRange: false)])
        #expect(s.colour(of: 1) == ColourInformation(nclx: NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true), icc: [1, 2, 3]))
        let limited = try Self.structure([B.colr(primaries: 1, transfer: 1, matrix: 1, fullRange: false)])
        #expect(limited.colour(of: 1).nclx?.fullRange == false)
        #expect(limited.colour(of: 1).icc == nil)
        // A short nclx is skipped, so a later well-formed one is used; an empty profile counts as none.
        let short = try Self.structure([Self.property("colr", Array("nclx".utf8) + [0, 1, 0]), B.colr(kind: "prof", icc: []),
                                        Self.property("colr", Array("junk".utf8) + [1, 2]), B.colr(primaries: 9, transfer: 16, matrix: 9, fullRange: false)])
        #expect(short.colour(of: 1) == ColourInformation(nclx: NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: false), icc: nil))
        #expect(try Self.structure([]).colour(of: 1) == ColourInformation(nclx: nil, icc: nil))
    }

    @Test("pixi bit depths and auxC types; short payloads are absent")
    func depthsAndAuxiliary() throws {
        #expect(try Self.structure([B.pixi(channels: 3)]).bitDepths(of: 1) == [8, 8, 8])
        #expect(try Self.structure([Self.property("pixi", B.fullBox(0) + [3, 10, 10])]).bitDepths(of: 1) == nil)
        #expect(try Self.structure([Self.property("pixi", B.fullBox(0))]).bitDepths(of: 1) == nil)
        #expect(try Self.structure([]).bitDepths(of: 1) == nil)
        let alpha = "urn:mpeg:hevc:2015:auxid:1"
        #expect(try Self.structure([Self.property("auxC", B.fullBox(0) + Array(alpha.utf8) + [0, 7, 7])]).auxiliaryType(of: 1) == alpha)
        #expect(try Self.structure([Self.property("auxC", B.fullBox(0) + Array(alpha.utf8))]).auxiliaryType(of: 1) == alpha)
        #expect(try Self.structure([Self.property("auxC", [0, 0])]).auxiliaryType(of: 1) == nil)
    }

    @Test("ipma essential flags survive, in association order")
    func essential() throws {
        let s = try Self.structure([B.hvcC(chroma: 1), B.ispe(width: 1, height: 1), B.irot(quarterTurns: 1)], essential: [1, 3])
        #expect(s.essentialPropertyTypes(of: 1) == ["hvcC", "irot"])
        #expect(s.associations[1] == [PropertyAssociation(index: 1, essential: true), PropertyAssociation(index: 2, essential: false),
                                      PropertyAssociation(index: 3, essential: true)])
        #expect(s.properties(of: 1, type: "irot").count == 1)
        #expect(s.essentialPropertyTypes(of: 2).isEmpty)
    }
}
