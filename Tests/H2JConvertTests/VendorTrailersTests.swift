import Foundation
import Testing
@testable import H2JContainer
@testable import H2JConvert
@testable import H2JSupport

@Suite("Vendor trailers")
struct VendorTrailersTests {
    /// A real HEIF from Samples/ with `extra` appended.
    func heif(appending extra: [UInt8]) throws -> MemoryByteSource {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/monochrome.heic").path
        let bytes = try #require(FileManager.default.contents(atPath: path))
        return MemoryByteSource([UInt8](bytes) + extra)
    }

    func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }

    /// A minimal SEF trailer: one block, the SEFH directory, length and "SEFT".
    var sef: [UInt8] {
        let block: [UInt8] = [0, 0, 0x01, 0x0A, 4, 0, 0, 0] + Array("Name".utf8) + Array("1715966589123".utf8)
        let directory: [UInt8] = Array("SEFH".utf8) + [101, 0, 0, 0, 1, 0, 0, 0]
            + [0, 0, 0x01, 0x0A, UInt8(block.count), 0, 0, 0, UInt8(block.count), 0, 0, 0]
        return block + directory + [UInt8(directory.count), 0, 0, 0] + Array("SEFT".utf8)
    }

    @Test("A 'sefd' box becomes the JPEG trailer, byte for byte, in keep mode only")
    func samsung() throws {
        let source = try heif(appending: box("sefd", sef))
        let structure = try HEIFStructure.read(from: source)
        let keep = try VendorTrailers(structure: structure, source: source, mode: .keep)
        #expect(keep.jpegTrailer == sef)
        #expect(keep.warnings.isEmpty)
        let strip = try VendorTrailers(structure: structure, source: source, mode: .strip)
        #expect(strip.jpegTrailer == nil && strip.warnings.isEmpty)
    }

    @Test("Motion-photo video, a malformed 'sefd' and bytes outside boxes are named in warnings")
    func warnings() throws {
        let source = try heif(appending: box("sefd", Array("not a trailer at all".utf8)) + box("mpvd", [UInt8](repeating: 7, count: 100)) + [1, 2, 3])
        let structure = try HEIFStructure.read(from: source)
        let keep = try VendorTrailers(structure: structure, source: source, mode: .keep)
        #expect(keep.jpegTrailer == nil)
        #expect(keep.warnings.count == 3, "\(keep.warnings)")
        #expect(keep.warnings.contains { $0.message.contains("'sefd' box (20 bytes) does not end like a Samsung SEF trailer") })
        #expect(keep.warnings.contains { $0.message.contains("'mpvd' box, 100 bytes") })
        #expect(keep.warnings.contains { $0.message.hasPrefix("3 bytes after the last complete box") })
    }
}

@Suite("Auxiliary-image metadata")
struct AuxiliaryMetadataTests {
    @Test("URNs get readable names")
    func names() {
        #expect(AuxiliaryKind(urn: "urn:com:apple:photo:2020:aux:hdrgainmap").phrase == "HDR gain map")
        #expect(AuxiliaryKind(urn: "urn:mpeg:hevc:2015:auxid:2").phrase == "depth map")
        #expect(AuxiliaryKind(urn: "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha").phrase == "alpha plane")
        #expect(AuxiliaryKind(urn: "urn:example:thing").phrase == "auxiliary image 'urn:example:thing'")
    }
}
