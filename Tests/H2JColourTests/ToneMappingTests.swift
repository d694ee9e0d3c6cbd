import Foundation
import Testing
@testable import H2JColour
@testable import H2JContainer

/// The HDR → SDR mapping: transfer functions against their published values, the tone
/// curve's promises (monotonic, reference white kept, the peak at SDR white), the
/// primaries' matrices, and a computed gain map that gives the HDR light back.
@Suite("Tone mapping")
struct ToneMappingTests {
    @Test("PQ's EOTF and HLG's inverse OETF + OOTF give BT.2100's and BT.2408's reference values")
    func transfers() {
        #expect(abs(HDRTransfer.pqEOTF(0) - 0) < 1e-9)
        #expect(abs(HDRTransfer.pqEOTF(1) - 10_000) < 1e-6)
        // BT.2408: reference white, 203 cd/m², is PQ 58 % (0.5806); 100 cd/m² is 0.5081.
        #expect(abs(HDRTransfer.pqEOTF(0.58069) - 203) < 0.5)
        #expect(abs(HDRTransfer.pqEOTF(0.50808) - 100) < 0.3)
        // HLG 75 % is reference white on the 1,000 cd/m² reference display.
        let e = HDRTransfer.hlgInverseOETF(0.75)
        #expect(abs(HDRTransfer.hlgOOTFFactor(sceneLuminance: e) * e - 203) < 1)
        #expect(abs(HDRTransfer.hlgInverseOETF(0.5) - 1.0 / 12) < 1e-9)
        #expect(abs(HDRTransfer.hlgInverseOETF(1) - 1) < 1e-6)
        #expect(HDRTransfer(nclxTransfer: 16) == .pq && HDRTransfer(nclxTransfer: 18) == .hlg && HDRTransfer(nclxTransfer: 13) == nil)
    }

    @Test("The curve rises strictly over every 12-bit PQ code, keeps levels below the knee, puts reference white within 3 % of SDR white and the peak at it")
    func curve() {
        for transfer in [HDRTransfer.pq, .hlg] {
            let curve = SDRToneCurve(peak: transfer.peak / HDRTransfer.referenceWhite)
            #expect(abs(curve(1) - 1) <= 0.03 && curve(1) < 1, "\(transfer): \(curve(1))")
            #expect(curve(curve.peak) == 1 && curve(curve.peak * 2) == 1)
            #expect(curve(0.5) == 0.5 && curve(0) == 0)
            // Continuous at the knee, with slope 1.
            let k = SDRToneCurve.knee
            #expect(abs(curve(k + 1e-6) - (k + 1e-6)) < 1e-9)
        }
        let curve = SDRToneCurve(peak: 10_000 / HDRTransfer.referenceWhite)
        var previous = -1.0
        for code in 0...4095 {
            let out = curve(HDRTransfer.pqEOTF(Double(code) / 4095) / HDRTransfer.referenceWhite)
            #expect(out > previous || (out == 0 && previous == 0), "code \(code): \(previous) → \(out)")
            previous = out
        }
    }

    @Test("BT.2020 → Display P3 keeps white and grey, matches the published matrix, and colours outside P3 are brought in with hue and luminance kept")
    func primaries() throws {
        let conversion = try #require(PrimariesConversion(from: ColourPrimaries(code: 9)!, to: ColourPrimaries(code: 12)!))
        let m = conversion.matrix
        for row in 0..<3 { #expect(abs(m[row * 3] + m[row * 3 + 1] + m[row * 3 + 2] - 1) < 1e-6, "white stays white") }
        // BT.2020 → P3-D65 (SMPTE RP 431-2 derived): first row 1.3435, −0.2822, −0.0613.
        #expect(abs(m[0] - 1.3435) < 0.001 && abs(m[1] + 0.2822) < 0.001 && abs(m[2] + 0.0613) < 0.001, "\(m)")
        let y = conversion.targetLuminance
        #expect(abs(y[0] - 0.2290) < 0.0005 && abs(y[1] - 0.6917) < 0.0005 && abs(y[2] - 0.0793) < 0.0005)
        // Pure BT.2020 green is outside P3: it gets a negative channel, which is mixed away.
        var (r, g, b) = (Float(m[1]), Float(m[4]), Float(m[7]))
        let luminance = Float(y[0]) * r + Float(y[1]) * g + Float(y[2]) * b
        #expect(min(r, g, b) < 0)
        PrimariesConversion.intoGamut(&r, &g, &b, luminance: luminance)
        #expect(min(r, g, b) >= -1e-6 && abs(Float(y[0]) * r + Float(y[1]) * g + Float(y[2]) * b - luminance) < 1e-5)
        #expect(g > r && g > b, "still green")
    }

    /// One row of a 10-bit PQ grey ramp mapped, with its light.
    static func mapped(_ mapping: HDRToneMapping, codes: [UInt16]) -> (sdr: [UInt8], hdr: [Float], sdrLight: [Float]) {
        let pixels = codes.flatMap { [$0, $0, $0] }
        var out = [UInt8](repeating: 0, count: codes.count * 3)
        var hdr = [Float](repeating: 0, count: codes.count), sdr = [Float](repeating: 0, count: codes.count)
        pixels.withUnsafeBufferPointer { row in
            out.withUnsafeMutableBufferPointer { o in
                hdr.withUnsafeMutableBufferPointer { h in
                    sdr.withUnsafeMutableBufferPointer { s in
                        mapping.map(row.baseAddress!, channels: 3, width: codes.count, into: o.baseAddress!, light: (h.baseAddress!, s.baseAddress!))
                    }
                }
            }
        }
        return (out, hdr, sdr)
    }

    @Test("A 10-bit PQ ramp over every code maps to grey SDR codes that never fall, 203 cd/m² to within 3 % of white")
    func ramp() throws {
        let mapping = try #require(HDRToneMapping(nclx: NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: true), bitDepth: 10,
                                                  targetPrimaries: HDRToneMapping.displayP3))
        let (sdr, hdr, _) = Self.mapped(mapping, codes: (0...1023).map(UInt16.init))
        for code in 1...1023 {
            #expect(sdr[3 * code] >= sdr[3 * code - 3], "code \(code)")
            #expect(sdr[3 * code] == sdr[3 * code + 1] && sdr[3 * code + 1] == sdr[3 * code + 2], "grey stays grey at \(code)")
        }
        #expect(sdr[0] == 0 && sdr[3 * 1023] == 255)
        let white = 595  // PQ code of 203 cd/m²
        #expect(abs(Double(hdr[white]) - 1) < 0.01, "\(hdr[white])")
        let signal = Double(sdr[3 * white]) / 255
        let linear = pow((signal + 0.055) / 1.055, 2.4)
        #expect(abs(linear - 1) <= 0.03, "reference white at \(linear)")
        #expect(mapping.description.contains("PQ (SMPTE ST 2084), BT.2020 → Display P3"))
    }

    @Test("The computed gain map, applied as ISO 21496-1 says, gives back the HDR light within 2 % from 0.1 to 10,000 cd/m²")
    func gainMap() throws {
        let mapping = try #require(HDRToneMapping(nclx: NCLX(primaries: 9, transfer: 16, matrix: 9, fullRange: true), bitDepth: 10,
                                                  targetPrimaries: HDRToneMapping.displayP3))
        let codes = (100...1023).map(UInt16.init)  // 100: about 0.1 cd/m²
        let (sdr, hdr, sdrLight) = Self.mapped(mapping, codes: codes)
        _ = sdr
        var computation = GainMapComputation(imageWidth: codes.count, imageHeight: 2)
        for _ in 0..<2 {
            hdr.withUnsafeBufferPointer { h in sdrLight.withUnsafeBufferPointer { s in computation.add(hdr: h.baseAddress!, sdr: s.baseAddress!) } }
        }
        let (gains, metadata) = computation.finish()
        #expect(gains.count == (codes.count + 1) / 2 && computation.height == 1)
        let channel = try #require(metadata.channels.first)
        let low = try #require(channel.min.value), high = try #require(channel.max.value), offset = try #require(channel.baseOffset.value)
        #expect(metadata.baseHDRHeadroom.value == 0 && (metadata.alternateHDRHeadroom.value ?? 0) > 5, "PQ to 10,000 cd/m² is over 5 stops above white")
        for x in stride(from: 0, to: codes.count - 1, by: 2) {
            let g = low + (high - low) * Double(gains[x / 2]) / 255
            let s = Double(sdrLight[x] + sdrLight[x + 1]) / 2, h = Double(hdr[x] + hdr[x + 1]) / 2
            let rebuilt = (s + offset) * pow(2, g) - offset
            #expect(abs(rebuilt / h - 1) < 0.02, "code \(codes[x]): \(h * 203) cd/m² rebuilt as \(rebuilt * 203)")
        }
    }
}
