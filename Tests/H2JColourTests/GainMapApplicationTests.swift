import Testing
@testable import H2JColour
@testable import H2JContainer
@testable import H2JSupport

/// A source's gain map applied to its HDR base for the SDR rendition.
@Suite("Gain map applied to an HDR base")
struct GainMapApplicationTests {
    static let pq = NCLX(primaries: 1, transfer: 16, matrix: 0, fullRange: true)

    /// One channel, gain `min`…`max` stops, gamma 1, no offsets, from an HDR base of 1 stop to SDR.
    static func metadata(min: GainMapMetadata.Fraction = .init(0, 1), max: GainMapMetadata.Fraction = .init(1, 1)) -> GainMapMetadata {
        GainMapMetadata(useBaseColourSpace: true, baseHDRHeadroom: .init(1, 1), alternateHDRHeadroom: .init(0, 1),
                        channels: [.init(min: min, max: max, gamma: .init(1, 1), baseOffset: .init(0, 1), alternateOffset: .init(0, 1))])
    }

    /// A one-row gain map of the given codes.
    static func gainMap(_ codes: [UInt8]) throws -> Raster {
        let raster = try #require(Raster(width: codes.count, height: 1, components: 1))
        for (x, code) in codes.enumerated() { raster.mutableRow(0)[x] = code }
        return raster
    }

    @Test("An HDR base's gain applies with weight −1: code 0 leaves its light, code 255 halves it (1 stop), in sRGB codes")
    func halves() throws {
        let application = try #require(GainMapApplication(nclx: Self.pq, bitDepth: 10, metadata: Self.metadata(), primaries: 1,
                                                          gainMap: try Self.gainMap([0, 255]), imageWidth: 2, imageHeight: 1))
        let code: UInt16 = 520   // PQ, about 100 cd/m²: 0.49 of reference white
        let row: [UInt16] = [code, code, code, code, code, code]
        var out = [UInt8](repeating: 0, count: 6)
        row.withUnsafeBufferPointer { application.map($0.baseAddress!, y: 0, channels: 3, into: &out) }
        let light = HDRTransfer.pqEOTF(Double(code) / 1023) / HDRTransfer.referenceWhite
        func sRGB(_ v: Double) -> Int { Int(((v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(v, 1 / 2.4) - 0.055) * 255).rounded()) }
        #expect(abs(Int(out[0]) - sRGB(light)) <= 1 && out[0] == out[1] && out[1] == out[2], "\(out)")
        #expect(abs(Int(out[3]) - sRGB(light / 2)) <= 1, "\(out), expected \(sRGB(light / 2))")
    }

    @Test("Values a file makes extreme never trap: an infinite gain clamps, a NaN is black")
    func extremes() throws {
        let huge = Self.metadata(min: .init(-2_147_483_648, 1), max: .init(2_147_483_647, 1))
        let application = try #require(GainMapApplication(nclx: Self.pq, bitDepth: 10, metadata: huge, primaries: 9,
                                                          gainMap: try Self.gainMap([0, 128, 255]), imageWidth: 5, imageHeight: 3))
        let row = [UInt16](repeating: 0, count: 15)
        var out = [UInt8](repeating: 7, count: 15)
        for y in 0..<3 { row.withUnsafeBufferPointer { application.map($0.baseAddress!, y: y, channels: 3, into: &out) } }
        #expect(out.allSatisfy { $0 == 0 || $0 == 255 }, "\(out)")
        #expect(GainMapApplication(nclx: NCLX(primaries: 1, transfer: 13, matrix: 0, fullRange: true), bitDepth: 10, metadata: huge,
                                   primaries: 1, gainMap: try Self.gainMap([0]), imageWidth: 1, imageHeight: 1) == nil, "SDR transfer")
    }
}
