import H2JTestSupport
import Testing
@testable import H2JInspect
@testable import H2JJPEG
@testable import H2JSupport

/// `JPEGSegments` (the header walker shared by the marker filter, `compare` and
/// `inspect`): fill bytes and refusals; and `JPEGFrameHeader`.
@Suite("JPEG header segments and frame header")
struct JPEGStructureTests {
    static let segment = JPEGTestSupport.segment
    static let sof: [UInt8] = segment(0xC0, [8] + BoxBuilder.u16(48) + BoxBuilder.u16(64) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])

    static func read(_ bytes: [UInt8]) -> JPEGSegments? { JPEGSegments(bytes) }

    @Test("Segments up to SOS, with their exact ranges; fill bytes before a marker are skipped")
    func walk() throws {
        let app1 = Self.segment(0xE1, Array("Exif\0\0".utf8))
        let fill = [UInt8](repeating: 0xFF, count: 150)
        let bytes: [UInt8] = [0xFF, 0xD8] + app1 + fill + Self.sof + [0xFF, 0xFF, 0xDA, 0, 2, 0xAB, 0xFF, 0xD9]
        let header = try #require(Self.read(bytes))
        #expect(header.segments.map(\.marker) == [0xE1, 0xC0])
        #expect(header.segments[0].range == 2..<(2 + app1.count))
        let sofStart = 2 + app1.count + fill.count
        #expect(header.segments[1].range == sofStart..<(sofStart + Self.sof.count))
        #expect(header.segments[1].payload == (sofStart + 4)..<(sofStart + Self.sof.count))
        #expect(header.scanStart == sofStart + Self.sof.count + 1)
        #expect(bytes[header.scanStart...].starts(with: [0xFF, 0xDA]))
    }

    @Test("Not a JPEG header: nil", arguments: [
        [], [0xFF], [0xFF, 0xD8], [0xFF, 0xD9, 0xFF, 0xDA],
        [0xFF, 0xD8, 0xFF, 0xD9],                      // EOI before any scan
        [0xFF, 0xD8, 0xFF, 0xD0, 0xFF, 0xDA],          // RST0 where a segment must be
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xDA], // length below 2
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0, 0],    // segment past the end
        [0xFF, 0xD8, 0x00, 0xFF, 0xDA],                // garbage between segments
        [0xFF, 0xD8, 0xFF, 0xFF, 0xFF],                // fill bytes to the end
    ] as [[UInt8]])
    func refused(_ bytes: [UInt8]) {
        #expect(Self.read(bytes) == nil)
    }

    @Test("Every prefix and many mutations of a real JPEG are walked without trapping; segments stay inside")
    func robustness() throws {
        let jpeg = try JPEGTestSupport.encode(width: 24, height: 16, markers: [(0xE1, Array("Exif\0\0".utf8) + [1, 2, 3])])
        #expect(Self.read(jpeg) != nil)
        for length in 0...jpeg.count { _ = Self.read(Array(jpeg.prefix(length))) }
        var generator = SeededGenerator("JPEGStructureTests/robustness")
        for _ in 0..<TestScale.iterations(3000) {
            var mutated = jpeg
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                mutated[Int.random(in: 0..<min(mutated.count, 400), using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let header = Self.read(mutated) {
                #expect(header.segments.allSatisfy { $0.range.upperBound <= header.scanStart && $0.range.count >= 4 },
                        "seed \(generator.seed)")
            }
            _ = JPEGMarkerFilter.strippingMetadata(from: mutated)
            _ = try? ImageInspection.describe(MemoryByteSource(mutated))
        }
    }

    @Test("Frame header: size, precision, coding and chroma subsampling from sampling factors")
    func frameHeader() throws {
        func frame(_ sampling: [UInt8], marker: UInt8 = 0xC0, precision: UInt8 = 8) -> JPEGFrameHeader? {
            var payload: [UInt8] = [precision] + BoxBuilder.u16(3024) + BoxBuilder.u16(4032)
            payload.append(UInt8(sampling.count))
            for (index, factors) in sampling.enumerated() { payload += [UInt8(index + 1), factors, 0] }
            return JPEGFrameHeader.parse(marker: marker, payload: payload)
        }
        let baseline = try #require(frame([0x22, 0x11, 0x11]))
        #expect(baseline.width == 4032 && baseline.height == 3024 && baseline.precision == 8)
        #expect(baseline.chroma == "4:2:0" && baseline.coding == "baseline")
        #expect(frame([0x21, 0x11, 0x11])?.chroma == "4:2:2")
        #expect(frame([0x11, 0x11, 0x11], marker: 0xC2)?.chroma == "4:4:4")
        #expect(frame([0x11, 0x11, 0x11], marker: 0xC2)?.coding == "progressive")
        #expect(frame([0x12, 0x11, 0x11])?.chroma == "4:4:0")
        #expect(frame([0x41, 0x11, 0x11])?.chroma == "4:1:1")
        #expect(frame([0x11], precision: 12)?.chroma == "4:0:0")
        #expect(frame([0x11], precision: 12)?.precision == 12)
        #expect(frame([0x11, 0x11, 0x11, 0x11])?.chroma == nil)   // CMYK
        #expect(frame([0x22, 0x00, 0x11])?.chroma == nil)         // zero factors
        #expect(frame([0x22, 0x21, 0x11])?.chroma == nil)         // unequal chroma
        #expect(JPEGFrameHeader.parse(marker: 0xC0, payload: [8, 0, 1, 0, 1, 3, 1, 0x22]) == nil)
        #expect(JPEGFrameHeader.isFrameMarker(0xC0) && JPEGFrameHeader.isFrameMarker(0xCF))
        #expect(!JPEGFrameHeader.isFrameMarker(0xC4) && !JPEGFrameHeader.isFrameMarker(0xC8) && !JPEGFrameHeader.isFrameMarker(0xCC))
    }
}
