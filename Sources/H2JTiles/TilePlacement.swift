import H2JContainer

/// Copies one decoded tile into the band buffer, upright: every output pixel the tile
/// covers is read from the tile through `PlaneGeometry`, so rotation, mirroring and
/// cropping cost one pass with no intermediate image.
///
/// Invariant: writes touch only the tile's own output rectangle (and, for 4:2:0, its
/// own chroma blocks, which `PlaneGeometry.keepsChromaBlocks` keeps whole), so tiles of
/// one band can be placed from several threads at once.
struct TilePlacement {
    let geometry: PlaneGeometry
    /// Canvas position of the tile's top-left sample.
    let x0: Int
    let y0: Int
    /// The output rectangle the tile covers (half-open).
    private(set) var rect: (u0: Int, v0: Int, u1: Int, v1: Int)

    /// nil when none of the tile survives the crop.
    init?(geometry: PlaneGeometry, column: Int, row: Int, tileWidth: Int, tileHeight: Int) {
        let (x0, y0) = (column * tileWidth, row * tileHeight)
        let w = min(tileWidth, geometry.canvasWidth - x0), h = min(tileHeight, geometry.canvasHeight - y0)
        guard let rect = geometry.outputRect(x: x0, y: y0, w: w, h: h) else { return nil }
        self.geometry = geometry
        self.x0 = x0
        self.y0 = y0
        self.rect = rect
    }

    /// This placement limited to output rows `v0..<v1` (even `v0` for 4:2:0 chroma).
    func rows(_ v0: Int, _ v1: Int) -> TilePlacement {
        var part = self
        part.rect = (rect.u0, max(rect.v0, v0), rect.u1, min(rect.v1, v1))
        return part
    }

    /// Copies the tile's luma plane (`stride` bytes per row) into `buffer`.
    func copyLuma(from plane: UnsafePointer<UInt8>, stride: Int, into buffer: BandBuffer) {
        let step = geometry.ax + geometry.ay * stride
        let count = rect.u1 - rect.u0
        for v in rect.v0..<rect.v1 {
            let (x, y) = geometry.canvas(rect.u0, v)
            let source = plane + (y - y0) * stride + (x - x0)
            let target = buffer.lumaRow(v) + rect.u0
            if step == 1 {
                target.update(from: source, count: count)
            } else {
                for i in 0..<count { target[i] = source[i * step] }
            }
        }
    }

    /// Copies the tile's 4:2:0 chroma planes. Output chroma sample (cu, cv) takes the
    /// tile's chroma sample under output luma pixel (2·cu, 2·cv); with whole blocks that
    /// is the one chroma sample the block has.
    func copyChroma(cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, stride: Int, into buffer: BandBuffer) {
        let step = geometry.ax + geometry.ay * stride
        let first = rect.u0 / 2, count = (rect.u1 + 1) / 2 - first
        var v = rect.v0
        while v < rect.v1 {
            let (x, y) = geometry.canvas(2 * first, v)
            let offset = ((y - y0) >> 1) * stride + ((x - x0) >> 1)
            let rows = buffer.chromaRows(v)
            for (source, target) in [(cb + offset, rows.cb + first), (cr + offset, rows.cr + first)] {
                if step == 1 {
                    target.update(from: source, count: count)
                } else {
                    for i in 0..<count { target[i] = source[i * step] }
                }
            }
            v += 2
        }
    }

    /// Re-encodes the placed region in JFIF colour (see `YCbCrConversion`).
    func convert(_ conversion: YCbCrConversion, in buffer: BandBuffer, chroma: Bool) {
        let width = rect.u1 - rect.u0, height = rect.v1 - rect.v0
        let luma = buffer.lumaRow(rect.v0) + rect.u0
        if chroma {
            let rows = buffer.chromaRows(rect.v0)
            conversion.apply(luma: luma, lumaStride: buffer.lumaStride,
                             chroma: (rows.cb + rect.u0 / 2, rows.cr + rect.u0 / 2, buffer.chromaStride),
                             width: width, height: height)
        } else {
            conversion.apply(luma: luma, lumaStride: buffer.lumaStride, chroma: nil, width: width, height: height)
        }
    }
}
