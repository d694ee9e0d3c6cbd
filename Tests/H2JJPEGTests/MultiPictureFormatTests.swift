import Foundation
import H2JTestSupport
import Testing
@testable import H2JInspect
@testable import H2JJPEG
@testable import H2JSupport

/// CIPA DC-007 segments, read back by exiftool (an independent MPF reader).
@Suite("Multi-Picture Format: MPO and gain-map layouts")
struct MultiPictureFormatTests {
    static func jpeg(_ width: Int, _ height: Int, exif: Bool = false) throws -> [UInt8] {
        let tiff: [UInt8] = Array("MM".utf8) + BoxBuilder.u16(42) + BoxBuilder.u32(8) + BoxBuilder.u16(0) + BoxBuilder.u32(0)
        return try JPEGTestSupport.encode(width: width, height: height, markers: exif ? [(0xE1, JPEGAPPSignature.exif + tiff)] : [])
    }

    @Test("A streamed file: the placeholder index is found again and its final form has the same length, the real sizes and offsets")
    func streamedIndex() throws {
        let placeholder = try #require(MultiPictureFormat.indexSegment([.init(type: .disparity), .init(type: .disparity)]))
        let left = try Self.jpeg(32, 16, exif: true)
        // The placeholder after the EXIF segment, as the converter writes it.
        let at = try #require(MultiPictureFormat.insertionPoint(left))
        let first = Array(left[..<at]) + placeholder + left[at...]
        let second = [0xFF, 0xD8] + MultiPictureFormat.attributeSegment(number: 2, type: .disparity) + (try Self.jpeg(32, 16)).dropFirst(2)
        let file = first + second
        let firstHeader = try #require(JPEGSegments(first)), leftHeader = try #require(JPEGSegments(left))
        let (offset, index) = try #require(MultiPictureFormat.finalIndex(header: firstHeader, types: [.disparity, .disparity],
                                                                        starts: [0, first.count], end: file.count))
        #expect(offset == at && index.count == placeholder.count)
        let patched = Array(file[..<offset]) + index + file[(offset + index.count)...]
        let listed = try #require(MultiPictureFormat.listed(payload: patched[(offset + 4)...], payloadStart: offset + 4))
        #expect(listed.map(\.start) == [0, first.count] && listed.map(\.size) == [first.count, second.count])
        #expect(MultiPictureFormat.join([(left, .disparity), (try Self.jpeg(32, 16), .disparity)]) == patched,
                "the streamed layout is the joined one")
        // No index, a count that differs, or a start past the end: nothing to patch.
        #expect(MultiPictureFormat.finalIndex(header: leftHeader, types: [.disparity, .disparity], starts: [0, left.count], end: left.count + 9) == nil)
        #expect(MultiPictureFormat.finalIndex(header: firstHeader, types: [.disparity], starts: [0], end: file.count) == nil)
        #expect(MultiPictureFormat.finalIndex(header: firstHeader, types: [.disparity, .disparity], starts: [0, file.count], end: file.count) == nil)
    }

    @Test("A stereo pair: both views listed with their sizes and offsets, the second extractable as it was, no validation warning",
          .enabled(if: ExifTool.isAvailable, "exiftool is not installed"))
    func stereoPair() throws {
        let left = try Self.jpeg(32, 16, exif: true), right = try Self.jpeg(32, 16)
        let joined = try #require(MultiPictureFormat.join([(left, .disparity), (right, .disparity)]))
        let tags = try ExifTool.tags(of: joined, name: "pair.mpo")
        #expect(tags["MPF0:NumberOfImages"] == "2" && tags["MPF0:MPFVersion"] == "0100", "\(tags)")
        #expect(tags["MPImage1:MPImageType"] == "\(0x02_0002)" && tags["MPImage2:MPImageType"] == "\(0x02_0002)", "\(tags)")
        // The first image's size counts its own MPF segment; the second starts after its EOI
        // (exiftool gives MPImageStart from the file's start) and comes back out as it went in.
        let segment = try #require(MultiPictureFormat.indexSegment([.init(type: .disparity), .init(type: .disparity)]))
        #expect(tags["MPImage1:MPImageLength"] == "\(left.count + segment.count)")
        #expect(tags["MPImage2:MPImageStart"] == "\(left.count + segment.count)")
        let scratch = TemporaryDirectory()
        let extracted = try ExifTool.output(["-b", "-MPImage2", scratch.file("pair.jpg", joined)])
        #expect(extracted == Array(joined[(left.count + segment.count)...]))
        #expect(Array(extracted.prefix(2)) == [0xFF, 0xD8] && extracted.dropFirst(2).starts(with: MultiPictureFormat.attributeSegment(number: 2, type: .disparity)))
        // EXIF (with JFIF before it) stays ahead of the MPF segment.
        #expect(JPEGSegments(joined)?.segments.prefix(3).map(\.marker) == [0xE0, 0xE1, 0xE2])
        // The only warnings are about the test's bare EXIF, none about MPF.
        #expect(try ExifTool.validationWarnings(of: joined, name: "pair.jpg").filter { !$0.contains("IFD0") } == [])
        let attributes = try ExifTool.run(["-a", "-G3", "-s", "-MPF:all"], on: Array(joined[(left.count + segment.count)...]), name: "right.jpg")
        #expect(attributes.contains("MPIndividualNum") && attributes.contains("BaseViewpointNum"), "\(attributes)")
    }

    @Test("A gain-map layout: the primary is a Baseline MP Primary Image, the gain map of no MP type",
          .enabled(if: ExifTool.isAvailable, "exiftool is not installed"))
    func gainMap() throws {
        let base = try Self.jpeg(64, 32), gain = try Self.jpeg(16, 8)
        let joined = try #require(MultiPictureFormat.join([(base, .baselinePrimary), (gain, .undefined)]))
        let tags = try ExifTool.tags(of: joined)
        #expect(tags["MPImage1:MPImageType"] == "\(0x03_0000)" && tags["MPImage2:MPImageType"] == "0", "\(tags)")
        let start = try #require(Int(tags["MPImage2:MPImageStart"] ?? ""))
        let length = try #require(Int(tags["MPImage2:MPImageLength"] ?? ""))
        #expect(start + length == joined.count && length == gain.count + MultiPictureFormat.attributeSegment(number: 2, type: .undefined).count)
        // Stored relative to the MP header: the segment follows JFIF (SOI + 18 bytes), the header 8 bytes into it.
        let index = try #require(JPEGSegments(joined)?.segments.first { $0.marker == 0xE2 })
        let stored = joined[(index.payload.lowerBound + 4 + 8 + 2 + 12 * 3 + 4 + 16 + 8)...].prefix(4)
        #expect(stored.reduce(0) { $0 << 8 | Int($1) } == start - (20 + MultiPictureFormat.headerOffset))
        #expect(try ExifTool.validationWarnings(of: joined) == [])
    }

    @Test("The index segment's length depends only on the image count, so it can be rewritten in place")
    func fixedLength() throws {
        let empty = try #require(MultiPictureFormat.indexSegment([.init(type: .baselinePrimary), .init(type: .undefined)]))
        let filled = try #require(MultiPictureFormat.indexSegment([.init(type: .baselinePrimary, size: 3_000_000),
                                                                   .init(type: .undefined, size: 200_000, offset: 2_999_990)]))
        #expect(empty.count == filled.count && empty != filled)
        #expect(MultiPictureFormat.indexSegment([.init(type: .undefined, size: 1 << 33)]) == nil)
        #expect(MultiPictureFormat.join([([0x00, 0x01], .disparity)]) == nil)
    }

    @Test("What join writes reads back: the index lists each image's type, size and start; inspect shows every image with its frame size")
    func readBack() throws {
        let left = try Self.jpeg(32, 16, exif: true), right = try Self.jpeg(24, 8)
        let joined = try #require(MultiPictureFormat.join([(left, .disparity), (right, .disparity)]))
        let header = try #require(JPEGSegments(joined))
        let segment = try #require(header.segments.first { $0.marker == 0xE2 })
        let listed = try #require(MultiPictureFormat.listed(payload: header.bytes[segment.payload], payloadStart: segment.payload.lowerBound))
        let index = try #require(MultiPictureFormat.indexSegment([.init(type: .disparity), .init(type: .disparity)]))
        #expect(listed == [.init(typeCode: 0x02_0002, size: left.count + index.count, start: 0),
                           .init(typeCode: 0x02_0002, size: joined.count - left.count - index.count, start: left.count + index.count)])
        let properties = try ImageInspection.describe(MemoryByteSource(joined))
        #expect(properties.images.map { $0.size.map { "\($0.width)x\($0.height)" } } == ["32x16", "24x8"])
        #expect(properties.images.map { $0.multiPicture?.type } == ["disparity", "disparity"] && properties.warnings.isEmpty)
        // A cut file: the second image is missing, which is said, not a failure.
        let cut = try ImageInspection.describe(MemoryByteSource(Array(joined.prefix(left.count + index.count))))
        #expect(cut.images.count == 2 && cut.warnings == ["Multi-Picture image 2: no JPEG at byte \(left.count + index.count)"])
        for length in stride(from: 0, to: segment.range.count, by: 3) {
            _ = MultiPictureFormat.listed(payload: header.bytes[segment.payload].prefix(length), payloadStart: 0)
        }
    }
}
