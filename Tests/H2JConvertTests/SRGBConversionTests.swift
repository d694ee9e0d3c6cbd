import H2JColour
import H2JContainer
import H2JJob
import Testing
@testable import H2JConvert

/// `--colorspace srgb` in the pixel stage: chosen only for colour that is not sRGB, and
/// the same colours whether the source writes RGB rows or the tile engine's YCbCr planes.
@Suite("Pixel stage: conversion to sRGB")
struct SRGBConversionTests {
    typealias Collector = PixelStageTests.Collector
    static let displayP3 = ICCFromNCLX.profile(for: NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true))!

    static var srgb: ConversionOptions {
        var options = ConversionOptions()
        options.colorspace = .srgb
        return options
    }

    @Test("A step only where it changes colours: not in keep mode, not for sRGB (untagged or tagged), not for data; gray passes unchanged")
    func chosen() throws {
        #expect(PixelStage.chain(for: ConversionOptions(), role: .picture, colour: .colour(profile: Self.displayP3), width: 64, height: 64).operations.isEmpty)
        #expect(PixelStage.chain(for: Self.srgb, role: .picture, colour: .colour(profile: nil), width: 64, height: 64).operations.isEmpty)
        #expect(PixelStage.chain(for: Self.srgb, role: .picture, colour: .colour(profile: SRGBProfile.bytes), width: 64, height: 64).operations.isEmpty)
        #expect(PixelStage.chain(for: Self.srgb, role: .picture, colour: .data, width: 64, height: 64).operations.isEmpty)
        let chain = PixelStage.chain(for: Self.srgb, role: .picture, colour: .colour(profile: Self.displayP3), width: 64, height: 64)
        #expect(chain.operations.count == 1)
        let gray = PixelFormat(width: 3, height: 1, layout: .rows(components: 1, subsampling: .s420))
        #expect(try chain.format(after: gray) == gray)
        let collector = Collector()
        try [UInt8]([1, 2, 3]).withUnsafeBufferPointer { try chain.sink(input: gray, into: collector).writeRows($0.baseAddress!, stride: 3, count: 1) }
        #expect(collector.rows == [[1, 2, 3]])
    }

    @Test("An unreadable profile fails the image with a reason, rather than passing colours unconverted")
    func unreadable() throws {
        let chain = PixelStage.chain(for: Self.srgb, role: .picture, colour: .colour(profile: [0, 1, 2, 3]), width: 64, height: 64)
        #expect(throws: ColourConversionError.self) {
            try chain.format(after: PixelFormat(width: 2, height: 2, layout: .rows(components: 3, subsampling: .s420)))
        }
    }

    /// A smooth `width`×`height` picture, inside sRGB's gamut (where clipping would magnify
    /// 4:2:0's small chroma errors): RGB rows, and the same as JFIF 4:2:0 planes
    /// (each chroma sample of its 2×2 block's mean), as the tile engine hands them on.
    static func picture(width: Int, height: Int) -> (rgb: [UInt8], y: [UInt8], cb: [UInt8], cr: [UInt8], chromaWidth: Int) {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                rgb[i] = UInt8(120 + 100 * x / width)
                rgb[i + 1] = UInt8(190 - 60 * y / height)
                rgb[i + 2] = UInt8(90 + 40 * (x + y) / (width + height))
            }
        }
        func luma(_ i: Int) -> Double { 0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2]) }
        let y = (0..<(width * height)).map { UInt8(luma($0 * 3).rounded()) }
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var cb = [UInt8](repeating: 0, count: cw * ch), cr = cb
        for by in 0..<ch {
            for bx in 0..<cw {
                var b = 0.0, r = 0.0, n = 0.0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] where 2 * bx + dx < width && 2 * by + dy < height {
                    let i = ((2 * by + dy) * width + 2 * bx + dx) * 3
                    b += 128 + (Double(rgb[i + 2]) - luma(i)) / 1.772
                    r += 128 + (Double(rgb[i]) - luma(i)) / 1.402
                    n += 1
                }
                cb[by * cw + bx] = UInt8((b / n).rounded())
                cr[by * cw + bx] = UInt8((r / n).rounded())
            }
        }
        return (rgb, y, cb, cr, cw)
    }

    @Test("Rows and the tile engine's planes (odd size, several row groups, last one short) give the same sRGB pixels, as rows of the chosen sampling")
    func planesAndRowsAgree() throws {
        let (width, height) = (37, 43)
        let picture = Self.picture(width: width, height: height)
        let chain = PixelStage.chain(for: Self.srgb, role: .picture, colour: .colour(profile: Self.displayP3), width: 64, height: 64)
        let rowsFormat = PixelFormat(width: width, height: height, layout: .rows(components: 3, subsampling: .s420))
        let planesFormat = PixelFormat(width: width, height: height, layout: .planes(components: 3, subsampling: .s420))
        #expect(try chain.format(after: planesFormat) == rowsFormat)
        #expect(try chain.sink(input: planesFormat, into: Collector()).rawRowsPerCall == 16)

        let fromRows = Collector()
        try picture.rgb.withUnsafeBufferPointer { try chain.sink(input: rowsFormat, into: fromRows).writeRows($0.baseAddress!, stride: width * 3, count: height) }
        let fromPlanes = try Self.planes(picture, width: width, height: height, groupRows: 16, chain: chain)
        // Fed whole, the planes give the very same pixels: no seam between row groups.
        #expect(try Self.planes(picture, width: width, height: height, groupRows: height, chain: chain).rows.flatMap { $0 }
                == fromPlanes.rows.flatMap { $0 })
        let a = fromRows.rows.flatMap { $0 }, b = fromPlanes.rows.flatMap { $0 }
        #expect(a.count == width * height * 3 && b.count == a.count)
        // Only 4:2:0's chroma differs: most at the picture's edges, where the filter replicates.
        let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 4 && differences.reduce(0, +) <= differences.count,
                "largest difference \(differences.max() ?? 0), mean \(Double(differences.reduce(0, +)) / Double(differences.count))")
        #expect(a != picture.rgb, "the colours were converted")
    }

    /// `picture`'s planes written through `chain` in groups of `groupRows` rows, as the tile engine writes them.
    static func planes(_ picture: (rgb: [UInt8], y: [UInt8], cb: [UInt8], cr: [UInt8], chromaWidth: Int), width: Int, height: Int,
                       groupRows: Int, chain: PixelChain) throws -> Collector {
        let collector = Collector()
        let sink = try chain.sink(input: PixelFormat(width: width, height: height, layout: .planes(components: 3, subsampling: .s420)), into: collector)
        let cw = picture.chromaWidth
        for first in stride(from: 0, to: height, by: groupRows) {
            let rows = min(groupRows, height - first), chromaRows = (rows + 1) / 2
            let y = Array(picture.y[(first * width)..<((first + rows) * width)])
            let cb = Array(picture.cb[(first / 2 * cw)..<((first / 2 + chromaRows) * cw)])
            let cr = Array(picture.cr[(first / 2 * cw)..<((first / 2 + chromaRows) * cw)])
            try y.withUnsafeBufferPointer { yp in
                try cb.withUnsafeBufferPointer { cbp in
                    try cr.withUnsafeBufferPointer { crp in
                        try sink.writeRaw(planes: [yp.baseAddress!, cbp.baseAddress!, crp.baseAddress!], strides: [width, cw, cw], rows: rows)
                    }
                }
            }
        }
        return collector
    }

    @Test("The planes' chroma is upsampled as libjpeg's fancy filter does: ¾ nearer, ¼ farther, edges replicated")
    func fancyUpsampling() throws {
        // Gray luma 128 everywhere; one chroma sample differs: Cr 228 at block (1, 1) of 3×3 blocks.
        let width = 6, height = 6
        let y = [UInt8](repeating: 128, count: width * height)
        var cr = [UInt8](repeating: 128, count: 9)
        cr[4] = 228
        let cb = [UInt8](repeating: 128, count: 9)
        let converter = JFIFPlanesToRGB(width: width, height: height)
        var red: [Int] = []
        try y.withUnsafeBufferPointer { yp in
            try cb.withUnsafeBufferPointer { cbp in
                try cr.withUnsafeBufferPointer { crp in
                    try converter.take([yp.baseAddress!, cbp.baseAddress!, crp.baseAddress!], strides: [width, 3, 3], rows: height) { rgb, count in
                        for index in 0..<(width * count) { red.append(Int(rgb[3 * index])) }
                    }
                }
            }
        }
        // Row 2 lies in chroma row 1, nearer row 0: vertically ¾ · 100 of Cr's excess, then across
        // the columns 0, 3/16, 9/16, 9/16, 3/16, 0 of its 4/3; R = 128 + 1.402 · that.
        let row2 = Array(red[(2 * width)..<(3 * width)])
        let expected = [128, 154, 207, 207, 154, 128]
        for (got, want) in zip(row2, expected) { #expect(abs(got - want) <= 1, "\(row2) vs \(expected)") }
    }
}
