import H2JContainer
import H2JJPEGCodec
import H2JSupport

extension DecodedJPEG: DecodedCanvas {}

/// Writes a decoded canvas upright into a sink: each output pixel read where
/// `PlaneGeometry` maps it (`irot`, `imir`, `clap` applied), in bands of 16 rows.
/// `components` 1 from an RGB canvas writes its BT.601 luma (an auxiliary image).
struct CanvasBands {
    let canvas: any DecodedCanvas
    let geometry: PlaneGeometry
    let components: Int

    static let bandRows = 16

    func write(to sink: any PixelSink) throws {
        try forEachBand { rows, stride, count in try sink.writeRows(rows, stride: stride, count: count) }
    }

    /// Calls `body` with the upright rows, top to bottom, in bands of at most 16.
    func forEachBand(_ body: (UnsafePointer<UInt8>, _ stride: Int, _ rows: Int) throws -> Void) rethrows {
        let stride = geometry.width * components
        var band = [UInt8](repeating: 0, count: stride * Self.bandRows)
        var v0 = 0
        while v0 < geometry.height {
            let count = min(Self.bandRows, geometry.height - v0)
            try band.withUnsafeMutableBufferPointer { out in
                for r in 0..<count { fill(out.baseAddress! + r * stride, row: v0 + r) }
                try body(out.baseAddress!, stride, count)
            }
            v0 += count
        }
    }

    /// Output row `v`, pixel by pixel from the canvas.
    private func fill(_ out: UnsafeMutablePointer<UInt8>, row v: Int) {
        let from = canvas.components
        for u in 0..<geometry.width {
            let (x, y) = geometry.canvas(u, v)
            let source = canvas.row(y) + x * from
            if components == from {
                for c in 0..<from { out[u * from + c] = source[c] }
            } else if from == 3 {
                out[u] = RGBColor.fixedPointLuma(source[0], source[1], source[2])
            } else {
                for c in 0..<components { out[u * components + c] = source[0] }
            }
        }
    }
}
