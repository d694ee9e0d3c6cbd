/// Where each output pixel comes from: HEIF's transformative properties (`clap`,
/// `irot`, `imir`, applied in association order) composed into one integer map from
/// output coordinates to canvas coordinates (the grid's reconstructed image, already
/// cropped to its `ispe`).
///
/// The map is `canvas = A · output + t` where `A` is a signed permutation matrix, so
/// every output row is either one canvas row walked forwards or backwards, or one
/// canvas column walked up or down. That is what lets the engine stream by bands: a
/// band of output rows is one grid row of tiles, or one grid column when rotated.
///
/// Invariant: every output pixel maps inside the canvas (`init` refuses crops that
/// leave it), so placing pixels never reads outside a tile.
package struct PlaneGeometry: Equatable, Sendable {
    /// Size of the reconstructed canvas (grid output size).
    package let canvasWidth: Int
    package let canvasHeight: Int
    /// Size of the upright output image.
    package let width: Int
    package let height: Int
    /// Canvas x = ax·u + bx·v + tx; canvas y = ay·u + by·v + ty (each coefficient −1, 0 or 1).
    package let ax: Int, bx: Int, tx: Int
    package let ay: Int, by: Int, ty: Int

    /// Why a set of transforms cannot be applied (a `clap` outside the image).
    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// Composes `transforms` in order, starting from the whole canvas.
    package init(canvasWidth: Int, canvasHeight: Int, transforms: [ImageTransform]) throws(Refusal) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        // Current image (w × h) and its map to the canvas.
        var (w, h) = (canvasWidth, canvasHeight)
        var (ax, bx, tx, ay, by, ty) = (1, 0, 0, 0, 1, 0)
        // Each step expresses old coordinates as B · new + s; compose canvas = A·(B·new + s) + t.
        func compose(_ b00: Int, _ b01: Int, _ s0: Int, _ b10: Int, _ b11: Int, _ s1: Int) {
            (ax, bx, tx, ay, by, ty) = (ax * b00 + bx * b10, ax * b01 + bx * b11, ax * s0 + bx * s1 + tx,
                                        ay * b00 + by * b10, ay * b01 + by * b11, ay * s0 + by * s1 + ty)
        }
        for transform in transforms {
            switch transform {
            case .cleanAperture(let aperture):
                guard let rect = aperture.cropRect(imageWidth: w, imageHeight: h), rect.width > 0, rect.height > 0 else {
                    throw Refusal(description: "its clean aperture ('clap') lies outside the \(w)×\(h) image")
                }
                compose(1, 0, rect.x, 0, 1, rect.y)
                (w, h) = (rect.width, rect.height)
            case .rotation(let quarterTurns):
                // One anticlockwise quarter turn: new (u, v) shows old (w − 1 − v, u).
                for _ in 0..<((quarterTurns % 4) + 4) % 4 {
                    compose(0, -1, w - 1, 1, 0, 0)
                    (w, h) = (h, w)
                }
            case .mirror(.vertical):
                // Top and bottom exchanged (see `MirrorAxis`).
                compose(1, 0, 0, 0, -1, h - 1)
            case .mirror(.horizontal):
                compose(-1, 0, w - 1, 0, 1, 0)
            }
        }
        (width, height) = (w, h)
        (self.ax, self.bx, self.tx, self.ay, self.by, self.ty) = (ax, bx, tx, ay, by, ty)
    }

    /// True when output rows run along canvas columns (a 90° or 270° turn).
    package var rowsFollowColumns: Bool { bx != 0 }

    /// The canvas position of output pixel (u, v).
    @inline(__always)
    package func canvas(_ u: Int, _ v: Int) -> (x: Int, y: Int) {
        (ax * u + bx * v + tx, ay * u + by * v + ty)
    }

    /// The output position of canvas pixel (x, y) (the inverse map; `A` is orthogonal,
    /// so its inverse is its transpose).
    @inline(__always)
    func output(_ x: Int, _ y: Int) -> (u: Int, v: Int) {
        let (dx, dy) = (x - tx, y - ty)
        return (ax * dx + ay * dy, bx * dx + by * dy)
    }

    /// True when every 2×2 block of output pixels maps onto one 2×2 block of canvas
    /// pixels, so subsampled (4:2:0) chroma can be moved block for block without
    /// resampling. Holds for even crop origins and even sizes on flipped axes.
    package var keepsChromaBlocks: Bool {
        // Output (0, 0) must land on a block's first sample along an axis walked forwards
        // and on its last sample along an axis walked backwards.
        let origin = canvas(0, 0)
        let alongU = ax != 0 ? (x: ax, isX: true) : (x: ay, isX: false)
        let alongV = bx != 0 ? (x: bx, isX: true) : (x: by, isX: false)
        func aligned(_ step: Int, _ coordinate: Int) -> Bool {
            step > 0 ? coordinate % 2 == 0 : coordinate % 2 == 1
        }
        return aligned(alongU.x, alongU.isX ? origin.x : origin.y)
            && aligned(alongV.x, alongV.isX ? origin.x : origin.y)
    }
}

extension PlaneGeometry {
    /// Output pixels (half-open `u0..<u1`, `v0..<v1`) whose source lies in the canvas
    /// rectangle at (`x`, `y`) of size `w` × `h`, clipped to the output; nil when none do.
    package func outputRect(x: Int, y: Int, w: Int, h: Int) -> (u0: Int, v0: Int, u1: Int, v1: Int)? {
        guard w > 0, h > 0 else { return nil }
        let a = output(x, y), b = output(x + w - 1, y + h - 1)
        let u0 = max(0, min(a.u, b.u)), u1 = min(width, max(a.u, b.u) + 1)
        let v0 = max(0, min(a.v, b.v)), v1 = min(height, max(a.v, b.v) + 1)
        return u0 < u1 && v0 < v1 ? (u0, v0, u1, v1) : nil
    }
}
