import Foundation
import H2JContainer
import H2JSupport
import H2JTestSupport
import Testing
@testable import H2JTiles

@Suite("Engine choice: a tile's colour comes from our SPS parse")
struct EngineChoiceColourTests {
    /// A sample whose tiles' SPS says full range, matrix 6, no `colr` nclx on the tiles.
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/photo-exif-gps-xmp-icc.heic")

    func choice(_ bytes: [UInt8]) throws -> EngineChoice {
        let source = MemoryByteSource(bytes)
        let structure = try HEIFStructure.read(from: source)
        return try EngineChoice.make(structure, image: structure.primaryImage(), source: source)
    }

    /// The file with its SPS's matrix_coeffs (the 8 bits after colour primaries 2 and
    /// transfer 2) set to `matrix`, in place.
    func withMatrix(_ matrix: UInt8, _ file: [UInt8]) throws -> [UInt8] {
        let structure = try HEIFStructure.read(from: MemoryByteSource(file))
        let hvcC = try #require(structure.properties.first { $0.type == "hvcC" })
        let sps = try #require(try HEVCConfiguration.parse(hvcC.payload).parameterSets.first { $0.first.map { $0 >> 1 & 0x3F } == 33 })
        let offset = try #require((0...(file.count - sps.count)).first { Array(file[$0..<($0 + sps.count)]) == sps })
        var bits = sps.flatMap { byte in (0..<8).map { byte >> (7 - $0) & 1 } }
        let pattern = [UInt8(2), 2, 6].flatMap { byte in (0..<8).map { byte >> (7 - $0) & 1 } }
        let start = try #require((0...(bits.count - pattern.count)).last { Array(bits[$0..<($0 + 24)]) == pattern })
        for i in 0..<8 { bits[start + 16 + i] = matrix >> (7 - i) & 1 }
        var patched = file
        for (index, i) in stride(from: 0, to: bits.count, by: 8).enumerated() {
            patched[offset + index] = bits[i..<(i + 8)].reduce(0) { $0 << 1 | $1 }
        }
        return patched
    }

    @Test("The SPS's own codes decide; a matrix that is not YCbCr goes to libheif with the reason")
    func matrices() throws {
        let file = try [UInt8](Data(contentsOf: Self.sample))
        guard case .tiles(let image) = try choice(file) else { Issue.record("the sample should take the tile engine"); return }
        #expect(image.signalColours.allSatisfy { $0 == NCLX(primaries: 2, transfer: 2, matrix: 6, fullRange: true) })
        for matrix: UInt8 in [11, 13, 14] {
            guard case .libheif(let reason) = try choice(withMatrix(matrix, file)) else { Issue.record("matrix \(matrix)"); continue }
            #expect(reason.contains("matrix \(matrix), not a plain YCbCr matrix"), "\(reason)")
        }
        guard case .tiles(let derived) = try choice(withMatrix(12, file)) else { Issue.record("matrix 12"); return }
        #expect(derived.signalColours.allSatisfy { $0.matrix == 12 })
    }
}
