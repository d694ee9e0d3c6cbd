import Foundation
import H2JContainer
import H2JTestSupport
import Testing
@testable import H2JTiles

@Suite("YCbCr re-encoding into JFIF (BT.601 full range)")
struct YCbCrConversionTests {
    /// RGB → YCbCr with luma weights (kr, kb), full or limited range, in floating point.
    /// Limited range is the inverse of libheif's expansion (×256/219, ×256/224).
    func encode(_ rgb: (Double, Double, Double), kr: Double, kb: Double, fullRange: Bool) -> (Double, Double, Double) {
        let y = kr * rgb.0 + (1 - kr - kb) * rgb.1 + kb * rgb.2
        let cb = (rgb.2 - y) / (2 * (1 - kb)), cr = (rgb.0 - y) / (2 * (1 - kr))
        return fullRange ? (y, cb + 128, cr + 128) : (16 + y * 219 / 256, 128 + cb * 224 / 256, 128 + cr * 224 / 256)
    }

    @Test("BT.601 full range (and unknown matrices, read as BT.601) pass through untouched")
    func passthrough() {
        for matrix in [5, 6, 2, 3, 99] {
            #expect(YCbCrConversion(matrix: matrix, fullRange: true, primaries: 1) == nil, "matrix \(matrix)")
        }
        #expect(YCbCrConversion(matrix: 6, fullRange: false, primaries: 1) != nil)
        #expect(YCbCrConversion(matrix: 1, fullRange: true, primaries: 1) != nil)
    }

    @Test("Flat colours in BT.709, BT.2020, BT.601 limited and Display P3 (matrix 12) land on their JFIF values",
          arguments: [(1, true, 1), (1, false, 1), (9, true, 9), (6, false, 6), (12, true, 12)])
    func flatColours(matrix: Int, fullRange: Bool, primaries: Int) throws {
        let conversion = try #require(YCbCrConversion(matrix: matrix, fullRange: fullRange, primaries: primaries))
        let (kr, kb) = NCLX.lumaWeights(matrix: matrix, primaries: primaries)
        var generator = SeededGenerator("YCbCrConversionTests/flatColours")
        for _ in 0..<200 {
            let rgb = (Double.random(in: 20...235, using: &generator), Double.random(in: 20...235, using: &generator),
                       Double.random(in: 20...235, using: &generator))
            let source = encode(rgb, kr: kr, kb: kb, fullRange: fullRange)
            let expected = encode(rgb, kr: 0.299, kb: 0.114, fullRange: true)
            var luma = [UInt8](repeating: UInt8(source.0.rounded()), count: 4)
            var cb = [UInt8(source.1.rounded())], cr = [UInt8(source.2.rounded())]
            luma.withUnsafeMutableBufferPointer { y in
                cb.withUnsafeMutableBufferPointer { b in
                    cr.withUnsafeMutableBufferPointer { r in
                        conversion.apply(luma: y.baseAddress!, lumaStride: 2, chroma: (b.baseAddress!, r.baseAddress!, 1), width: 2, height: 2)
                    }
                }
            }
            // Rounding the source to 8 bits costs up to ±1.5 after the matrix.
            #expect(abs(Double(luma[0]) - expected.0) <= 1.6 && luma.allSatisfy { $0 == luma[0] }, "\(rgb): Y \(luma[0]) vs \(expected.0), seed \(generator.seed)")
            #expect(abs(Double(cb[0]) - expected.1) <= 2 && abs(Double(cr[0]) - expected.2) <= 2, "\(rgb): CbCr \(cb[0]),\(cr[0]) vs \(expected.1),\(expected.2), seed \(generator.seed)")
        }
    }

    @Test("Limited-range gray expands to full range as libheif does (×256/219): 16 → 0, 235 → 255, 126 → 129")
    func limitedGray() throws {
        let conversion = try #require(YCbCrConversion(matrix: 6, fullRange: false, primaries: 6))
        var luma: [UInt8] = [16, 235, 126, 10, 250]
        luma.withUnsafeMutableBufferPointer { conversion.apply(luma: $0.baseAddress!, lumaStride: 5, chroma: nil, width: 5, height: 1) }
        #expect(luma == [0, 255, 129, 0, 255])
    }

    @Test("Odd regions: edge blocks average only the luma samples they have")
    func oddRegion() throws {
        let conversion = try #require(YCbCrConversion(matrix: 1, fullRange: true, primaries: 1))
        // 3×3 gray: Cb = Cr = 128, so every matrix keeps it gray and Y unchanged.
        var luma = [UInt8](repeating: 100, count: 9)
        var cb = [UInt8](repeating: 128, count: 4), cr = cb
        luma.withUnsafeMutableBufferPointer { y in
            cb.withUnsafeMutableBufferPointer { b in
                cr.withUnsafeMutableBufferPointer { r in
                    conversion.apply(luma: y.baseAddress!, lumaStride: 3, chroma: (b.baseAddress!, r.baseAddress!, 2), width: 3, height: 3)
                }
            }
        }
        #expect(luma.allSatisfy { $0 == 100 })
        #expect(cb.allSatisfy { $0 == 128 } && cr.allSatisfy { $0 == 128 })
    }
}
