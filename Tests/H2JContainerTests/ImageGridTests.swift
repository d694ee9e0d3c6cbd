import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

@Suite("grid descriptors")
struct ImageGridTests {
    typealias B = BoxBuilder

    @Test("16- and 32-bit output sizes")
    func sizes() throws {
        #expect(try ImageGrid.parse(B.grid(rows: 6, columns: 8, width: 4032, height: 3024))
            == ImageGrid(rows: 6, columns: 8, outputWidth: 4032, outputHeight: 3024))
        #expect(try ImageGrid.parse(B.grid(rows: 256, columns: 1, width: 70_000, height: 0x7FFF_FFFF, wide: true))
            == ImageGrid(rows: 256, columns: 1, outputWidth: 70_000, outputHeight: 0x7FFF_FFFF))
        #expect(try ImageGrid.parse(B.grid(rows: 1, columns: 1, width: 1, height: 1) + [9, 9]).outputWidth == 1)
    }

    @Test("Short, versioned and empty descriptors are malformed")
    func malformed() {
        #expect(throws: HEIFError.malformedBox("grid", reason: "the descriptor has 3 bytes, 8 needed")) { try ImageGrid.parse([0, 0, 1]) }
        #expect(throws: HEIFError.malformedBox("grid", reason: "the descriptor has 7 bytes, 8 needed")) {
            try ImageGrid.parse(Array(B.grid(rows: 1, columns: 1, width: 1, height: 1).dropLast()))
        }
        #expect(throws: HEIFError.malformedBox("grid", reason: "the descriptor has 8 bytes, 12 needed")) {
            try ImageGrid.parse(B.grid(rows: 1, columns: 1, width: 1, height: 1, wide: true).prefix(8).map { $0 })
        }
        #expect(throws: HEIFError.malformedBox("grid", reason: "descriptor version 1 is not 0")) {
            try ImageGrid.parse([1] + B.grid(rows: 1, columns: 1, width: 1, height: 1).dropFirst())
        }
        #expect(throws: HEIFError.malformedBox("grid", reason: "the output size is 0×5")) {
            try ImageGrid.parse(B.grid(rows: 1, columns: 1, width: 0, height: 5))
        }
    }

    @Test("A grid item stored in idat is read and parsed")
    func fromIdat() throws {
        let descriptor = B.grid(rows: 2, columns: 3, width: 1500, height: 1000)
        let file = B.ftyp + B.meta(primary: 9, items: [(9, "grid"), (1, "hvc1")], references: [B.reference("dimg", from: 9, to: [1])],
                                   extraBoxes: [B.iloc([B.Location(id: 9, construction: 1, extents: [(0, 0, UInt64(descriptor.count))])]),
                                                B.idat(descriptor)])
        let structure = try HEIFStructure.read(from: MemoryByteSource(file))
        let grid = try ImageGrid.parse(structure.itemData(9, from: MemoryByteSource(file), maxBytes: 64))
        #expect(grid == ImageGrid(rows: 2, columns: 3, outputWidth: 1500, outputHeight: 1000))
    }
}
