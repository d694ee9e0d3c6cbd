import Testing
@testable import H2JContainer

@Suite("Plane geometry: irot/imir/clap composed into one map")
struct PlaneGeometryTests {
    /// A plane as rows of distinct values, transformed the slow, obvious way.
    struct Plane: Equatable {
        var rows: [[Int]]
        var width: Int { rows.first?.count ?? 0 }
        var height: Int { rows.count }

        init(width: Int, height: Int) { rows = (0..<height).map { y in (0..<width).map { x in y * 1000 + x } } }
        init(rows: [[Int]]) { self.rows = rows }

        func rotatedAnticlockwise() -> Plane {
            Plane(rows: (0..<width).map { v in (0..<height).map { u in rows[u][width - 1 - v] } })
        }
        func mirrored(_ axis: MirrorAxis) -> Plane {
            axis == .horizontal ? Plane(rows: rows.map { $0.reversed() }) : Plane(rows: rows.reversed())
        }
        func cropped(x: Int, y: Int, w: Int, h: Int) -> Plane {
            Plane(rows: rows[y..<(y + h)].map { Array($0[x..<(x + w)]) })
        }
    }

    /// The reference: transforms applied one after another to a real plane.
    func reference(_ canvas: Plane, _ transforms: [ImageTransform]) -> Plane {
        transforms.reduce(canvas) { plane, transform in
            switch transform {
            case .rotation(let turns): return (0..<(turns % 4)).reduce(plane) { p, _ in p.rotatedAnticlockwise() }
            case .mirror(let axis): return plane.mirrored(axis)
            case .cleanAperture(let aperture):
                let r = aperture.cropRect(imageWidth: plane.width, imageHeight: plane.height)!
                return plane.cropped(x: r.x, y: r.y, w: r.width, h: r.height)
            }
        }
    }

    func mapped(_ canvas: Plane, _ geometry: PlaneGeometry) -> Plane {
        Plane(rows: (0..<geometry.height).map { v in
            (0..<geometry.width).map { u in
                let (x, y) = geometry.canvas(u, v)
                return canvas.rows[y][x]
            }
        })
    }

    /// A centred clean aperture of `w` × `h` (integer fractions).
    func centredCrop(_ w: Int, _ h: Int) -> ImageTransform {
        .cleanAperture(CleanAperture(widthNumerator: w, widthDenominator: 1, heightNumerator: h, heightDenominator: 1,
                                     horizontalOffsetNumerator: 0, horizontalOffsetDenominator: 1, verticalOffsetNumerator: 0, verticalOffsetDenominator: 1))
    }

    @Test("Every rotation and mirror, alone and combined, with and without a crop, matches the step-by-step reference",
          arguments: [(7, 5), (8, 6), (1, 1), (12, 3)])
    func allCombinations(width: Int, height: Int) throws {
        let canvas = Plane(width: width, height: height)
        var cases: [[ImageTransform]] = []
        for turns in 0..<4 {
            for mirror in [nil, MirrorAxis.vertical, .horizontal] {
                var list: [ImageTransform] = turns > 0 ? [.rotation(quarterTurnsAnticlockwise: turns)] : []
                if let mirror { list.append(.mirror(mirror)) }
                cases.append(list)
                cases.append([centredCrop(max(1, width - 2), max(1, height - 2))] + list)
                cases.append(list.reversed())
            }
        }
        for transforms in cases {
            let geometry = try PlaneGeometry(canvasWidth: width, canvasHeight: height, transforms: transforms)
            let expected = reference(canvas, transforms)
            #expect(geometry.width == expected.width && geometry.height == expected.height, "\(transforms)")
            #expect(mapped(canvas, geometry) == expected, "\(transforms)")
            // The inverse map agrees with the forward one.
            for v in 0..<geometry.height {
                for u in 0..<geometry.width {
                    let (x, y) = geometry.canvas(u, v)
                    #expect(geometry.output(x, y) == (u, v))
                }
            }
        }
    }

    @Test("Quarter turns are anticlockwise: the canvas's top-right corner becomes the output's top-left")
    func anticlockwise() throws {
        let geometry = try PlaneGeometry(canvasWidth: 4, canvasHeight: 3, transforms: [.rotation(quarterTurnsAnticlockwise: 1)])
        #expect(geometry.width == 3 && geometry.height == 4)
        #expect(geometry.canvas(0, 0) == (3, 0))
        #expect(geometry.canvas(0, 3) == (0, 0))
        #expect(geometry.rowsFollowColumns)
    }

    @Test("Chroma blocks stay whole only for even origins on forward axes and odd ones on reversed axes")
    func chromaBlocks() throws {
        #expect(try PlaneGeometry(canvasWidth: 8, canvasHeight: 6, transforms: [.rotation(quarterTurnsAnticlockwise: 1), .mirror(.horizontal)]).keepsChromaBlocks)
        #expect(try PlaneGeometry(canvasWidth: 7, canvasHeight: 6, transforms: []).keepsChromaBlocks)
        #expect(try !PlaneGeometry(canvasWidth: 7, canvasHeight: 6, transforms: [.mirror(.horizontal)]).keepsChromaBlocks)
        #expect(try PlaneGeometry(canvasWidth: 7, canvasHeight: 6, transforms: [.mirror(.vertical)]).keepsChromaBlocks)
        #expect(try !PlaneGeometry(canvasWidth: 7, canvasHeight: 6, transforms: [.rotation(quarterTurnsAnticlockwise: 1)]).keepsChromaBlocks)
        #expect(try PlaneGeometry(canvasWidth: 7, canvasHeight: 6, transforms: [.rotation(quarterTurnsAnticlockwise: 3)]).keepsChromaBlocks)
        // A centred 5-wide crop of 8 starts at x = 1 (odd).
        #expect(try !PlaneGeometry(canvasWidth: 8, canvasHeight: 6, transforms: [centredCrop(5, 6)]).keepsChromaBlocks)
    }

    @Test("Output rectangles of canvas regions, clipped to the output")
    func outputRects() throws {
        let geometry = try PlaneGeometry(canvasWidth: 10, canvasHeight: 6, transforms: [.rotation(quarterTurnsAnticlockwise: 1)])
        // Canvas columns 8..<10 become output rows 0..<2.
        let rect = try #require(geometry.outputRect(x: 8, y: 0, w: 4, h: 6))
        #expect(rect == (0, 0, 6, 2))
        #expect(geometry.outputRect(x: 20, y: 0, w: 4, h: 6) == nil)
    }

    @Test("A clean aperture libheif cannot apply (zero denominator) is refused")
    func refusedCrop() {
        let crop = ImageTransform.cleanAperture(CleanAperture(widthNumerator: 20, widthDenominator: 0, heightNumerator: 2, heightDenominator: 1,
                                                              horizontalOffsetNumerator: 0, horizontalOffsetDenominator: 1, verticalOffsetNumerator: 0, verticalOffsetDenominator: 1))
        #expect(throws: PlaneGeometry.Refusal.self) { try PlaneGeometry(canvasWidth: 8, canvasHeight: 6, transforms: [crop]) }
    }
}
