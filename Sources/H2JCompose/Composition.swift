import H2JContainer
import H2JSupport

/// A derived image flattened into what paints its upright output, in paint order, over
/// the background: fills (an overlay's canvas) and pictures (its decoded inputs,
/// `pictures[index]`, blended by their alpha when they have one) placed by an integer
/// map and clipped to a rectangle. An `iden`'s transforms, a grid's tile
/// positions and an overlay's offsets all compose into those maps (`CompositionPlan`), so
/// the output is produced band by band without any intermediate canvas.
///
/// Invariant: each painted rectangle lies inside the output, and a picture's map sends
/// every pixel of its rectangle inside the picture (`CompositionPlan` clips them so);
/// `render` checks each row's ends anyway and paints nothing it would read outside.
package struct Composition {
    package let width: Int
    package let height: Int
    /// What the output shows where nothing opaque is painted (`--background`).
    let background: RGBColor
    /// What each picture is: its item and its upright size.
    package let pictures: [Picture]
    let paints: [Paint]

    package struct Picture: Equatable {
        package let item: UInt32
        package let width: Int
        package let height: Int
    }

    /// Output pixels `u0..<u1` × `v0..<v1` (half-open).
    struct Rect: Equatable {
        var u0: Int, v0: Int, u1: Int, v1: Int
        var area: Int { (u1 - u0) * (v1 - v0) }
    }

    enum Paint: Equatable {
        /// An opaque colour (an overlay's fill, already composited onto the background).
        case fill(RGBColor, Rect)
        /// Picture `index`: output pixel (u, v) of `clip` shows its pixel `map(u, v)`.
        case picture(Int, PixelMap, Rect)
    }

    /// x = ax·u + bx·v + tx, y = ay·u + by·v + ty, each coefficient −1, 0 or 1 (a signed
    /// permutation and a shift, as `PlaneGeometry`'s).
    struct PixelMap: Equatable {
        var ax: Int, bx: Int, tx: Int
        var ay: Int, by: Int, ty: Int

        static let identity = PixelMap(ax: 1, bx: 0, tx: 0, ay: 0, by: 1, ty: 0)

        @inline(__always)
        func callAsFunction(_ u: Int, _ v: Int) -> (x: Int, y: Int) { (ax * u + bx * v + tx, ay * u + by * v + ty) }

        /// This map read through `geometry` first: (u, v) → `geometry.canvas(u, v)` → self.
        func after(_ g: PlaneGeometry) -> PixelMap {
            PixelMap(ax: ax * g.ax + bx * g.ay, bx: ax * g.bx + bx * g.by, tx: ax * g.tx + bx * g.ty + tx,
                     ay: ay * g.ax + by * g.ay, by: ay * g.bx + by * g.by, ty: ay * g.tx + by * g.ty + ty)
        }

        /// This map with its input moved right by `dx` and down by `dy`.
        func shifted(x dx: Int, y dy: Int) -> PixelMap {
            PixelMap(ax: ax, bx: bx, tx: tx - ax * dx - bx * dy, ay: ay, by: by, ty: ty - ay * dx - by * dy)
        }
    }

    /// A decoded picture: 8-bit gray or RGB pixels of the picture's size, and its alpha
    /// plane (gray, the same size), straight or premultiplied, when it has one.
    package struct Input {
        package let pixels: any DecodedCanvas
        package var alpha: (any DecodedCanvas)? = nil
        package var premultiplied = false

        package init(pixels: any DecodedCanvas, alpha: (any DecodedCanvas)? = nil, premultiplied: Bool = false) {
            self.pixels = pixels
            self.alpha = alpha
            self.premultiplied = premultiplied
        }
    }

    /// The output's samples per pixel: 1 when every picture and fill is gray, else 3.
    package func components(pictureComponents: [Int]) -> Int {
        let grayFills = paints.allSatisfy { paint in
            if case .fill(let colour, _) = paint { return colour.red == colour.green && colour.green == colour.blue }
            return true
        }
        return grayFills && pictureComponents.allSatisfy { $0 == 1 } ? 1 : 3
    }

    static let bandRows = 16

    /// Calls `body` with the output's rows, top to bottom, in bands of at most 16 rows of
    /// `components` samples per pixel (1 from RGB pictures: their luma, `RGBColor.fixedPointLuma`).
    /// Only one band is held; `canvases` are the decoded pictures, in `pictures` order.
    package func forEachBand(_ canvases: [Input], components: Int,
                     _ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) rethrows {
        let stride = width * components
        var band = [UInt8](repeating: 0, count: stride * Self.bandRows)
        var v0 = 0
        while v0 < height {
            let count = min(Self.bandRows, height - v0)
            try band.withUnsafeMutableBufferPointer { out in
                render(rows: v0..<(v0 + count), into: out.baseAddress!, components: components, canvases: canvases)
                try body(out.baseAddress!, stride, count)
            }
            v0 += count
        }
    }

    /// Paints output rows `rows` into `band` (row `rows.lowerBound` first).
    func render(rows: Range<Int>, into band: UnsafeMutablePointer<UInt8>, components: Int, canvases: [Input]) {
        let stride = width * components
        let backdrop = components == 1 ? [background.luma] : [background.red, background.green, background.blue]
        for index in 0..<(width * rows.count) {
            for c in 0..<components { band[index * components + c] = backdrop[c] }
        }
        for paint in paints {
            switch paint {
            case .fill(let colour, let rect):
                let samples = components == 1 ? [RGBColor.fixedPointLuma(colour.red, colour.green, colour.blue)] : [colour.red, colour.green, colour.blue]
                let first = max(rows.lowerBound, rect.v0), last = min(rows.upperBound, rect.v1)
                for v in first..<max(first, last) {
                    let row = band + (v - rows.lowerBound) * stride
                    for u in rect.u0..<rect.u1 {
                        for c in 0..<components { row[u * components + c] = samples[c] }
                    }
                }
            case .picture(let index, let map, let rect):
                guard index < canvases.count else { continue }
                let canvas = canvases[index].pixels
                let first = max(rows.lowerBound, rect.v0), last = min(rows.upperBound, rect.v1)
                for v in first..<max(first, last) {
                    let a = map(rect.u0, v), b = map(rect.u1 - 1, v)
                    guard a.x >= 0, a.y >= 0, b.x >= 0, b.y >= 0, a.x < canvas.width, b.x < canvas.width,
                          a.y < canvas.height, b.y < canvas.height else { continue }
                    Self.copy(canvases[index], map: map, row: v, from: rect.u0, to: rect.u1,
                              into: band + (v - rows.lowerBound) * stride, components: components)
                }
            }
        }
    }

    /// Output row `v`'s pixels `u0..<u1` from `input`, read where `map` sends them, and
    /// blended over what is there by the input's alpha (`RGBColor.composite`).
    private static func copy(_ input: Input, map: PixelMap, row v: Int, from u0: Int, to u1: Int,
                             into out: UnsafeMutablePointer<UInt8>, components: Int) {
        let canvas = input.pixels
        let from = canvas.components
        if let alpha = input.alpha {
            var pixel: [UInt8] = [0, 0, 0]
            for u in u0..<u1 {
                let (x, y) = map(u, v)
                let source = canvas.row(y) + x * from
                let a = Int(alpha.row(y)[x])
                if from == components {
                    for c in 0..<from { pixel[c] = source[c] }
                } else if from == 1 {
                    for c in 0..<components { pixel[c] = source[0] }
                } else {
                    pixel[0] = RGBColor.fixedPointLuma(source[0], source[1], source[2])
                }
                let target = out + u * components
                for c in 0..<components {
                    target[c] = RGBColor.composite(pixel[c], alpha: a, over: target[c], premultiplied: input.premultiplied)
                }
            }
            return
        }
        if map.ax == 1, map.ay == 0, from == components {
            // Along one canvas row, forwards: one copy.
            let (x, y) = map(u0, v)
            (out + u0 * components).update(from: canvas.row(y) + x * from, count: (u1 - u0) * from)
            return
        }
        for u in u0..<u1 {
            let (x, y) = map(u, v)
            let source = canvas.row(y) + x * from
            let target = out + u * components
            if from == components {
                for c in 0..<from { target[c] = source[c] }
            } else if from == 1 {
                for c in 0..<components { target[c] = source[0] }
            } else {
                target[0] = RGBColor.fixedPointLuma(source[0], source[1], source[2])
            }
        }
    }
}
