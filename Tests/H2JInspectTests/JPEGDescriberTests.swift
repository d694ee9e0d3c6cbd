import H2JTestSupport
import Testing
@testable import H2JColour
@testable import H2JContainer
@testable import H2JInspect
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

@Suite("inspect: JPEG description")
struct JPEGDescriberTests {
    /// EXIF like a phone's, south-west of Greenwich, 5 m below sea level.
    static var exif: [UInt8] {
        var tiff = EXIFTestTIFF.typical()
        tiff.ifd0 += [EXIFTestTIFF.Entry(EXIFTag.software, .ascii("17.1   "))]
        tiff.exif! += [
            EXIFTestTIFF.Entry(EXIFTag.exposureTime, .rational([(1, 120)])),
            EXIFTestTIFF.Entry(EXIFTag.fNumber, .rational([(8, 5)])),
            EXIFTestTIFF.Entry(EXIFTag.isoSpeedRatings, .short([64])),
            EXIFTestTIFF.Entry(EXIFTag.imageUniqueID, .ascii("0123456789ABCDEF0123456789ABCDEF")),
        ]
        tiff.gps = [
            EXIFTestTIFF.Entry(EXIFTag.gpsLatitudeRef, .ascii("S")),
            EXIFTestTIFF.Entry(EXIFTag.gpsLatitude, .rational([(22, 1), (57, 1), (4311, 625)])),
            EXIFTestTIFF.Entry(EXIFTag.gpsLongitudeRef, .ascii("W")),
            EXIFTestTIFF.Entry(EXIFTag.gpsLongitude, .rational([(43, 1), (12, 1), (378, 10)])),
            EXIFTestTIFF.Entry(EXIFTag.gpsAltitudeRef, .byte([1])),
            EXIFTestTIFF.Entry(EXIFTag.gpsAltitude, .rational([(5, 1)])),
        ]
        return Array("Exif\0\0".utf8) + tiff.build().bytes
    }

    /// An ICC profile large enough to need two APP2 chunks.
    static func largeProfile() throws -> [UInt8] {
        let profile = try #require(ICCFromNCLX.profile(for: NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true)))
        return profile + [UInt8](repeating: 0, count: 70_000)
    }

    @Test("Everything a phone JPEG carries: frame, EXIF groups, XMP with the mark, Extended XMP, ICC in two chunks")
    func full() throws {
        let packet = ProvenanceMarkPackets.attributePacket()
        let extended = JPEGAPPSignature.extendedXMP + [UInt8](repeating: 0x41, count: JPEGDescriber.extendedXMPChunkHeaderBytes)
            + Array("<x:xmpmeta/>".utf8)
        let icc = try Self.largeProfile()
        let jpeg = try JPEGTestSupport.encode(width: 24, height: 16, markers: [(0xE1, Self.exif), (0xE1, JPEGAPPSignature.xmp + packet), (0xE1, extended)], icc: icc)
        let properties = try ImageInspection.describe(MemoryByteSource(jpeg))

        #expect(properties.format == "jpeg" && properties.byteSize == jpeg.count && properties.brands == nil)
        let image = try #require(properties.images.first)
        #expect(properties.images.count == 1 && image.isPrimary && image.id == nil)
        #expect(image.size == ImageSize(width: 24, height: 16))
        #expect(image.displaySize == ImageSize(width: 16, height: 24), "EXIF Orientation 6 turns it")
        #expect(image.components == 3 && image.coding == "baseline")
        let primary = try #require(properties.primary)
        #expect(primary.bitDepth == 8 && primary.chroma == "4:2:0" && primary.exifOrientation == 6)
        #expect(primary.icc?.description == "Display P3, sRGB transfer (heic2jpg, from nclx 12/13)")
        #expect(primary.icc?.bytes == icc.count && primary.nclx == nil && primary.transforms.isEmpty)

        #expect(properties.metadata.exif == Self.exif.count - 6)
        #expect(properties.metadata.xmp == packet.count)
        #expect(properties.metadata.extendedXMP == 12)
        #expect(properties.metadata.icc == icc.count)
        #expect(properties.provenance == ProvenanceMarkPackets.expected)
        #expect(properties.warnings.isEmpty)

        #expect(properties.exifGroups.map(\.name) == ["{TIFF}", "{Exif}", "{GPS}"])
        #expect(properties.exifValue("{TIFF}", "Make") == .text("Apple"))
        #expect(properties.exifValue("{TIFF}", "Software") == .text("17.1"))
        #expect(properties.exifValue("{TIFF}", "Orientation") == .integer(6))
        #expect(properties.exifValue("{TIFF}", "XResolution") == .rational(TIFFRational(72, 1)))
        #expect(properties.exifValue("{Exif}", "ExposureTime") == .rational(TIFFRational(1, 120)))
        #expect(properties.exifValue("{Exif}", "ISOSpeedRatings") == .integer(64))
        #expect(properties.exifValue("{Exif}", "PixelXDimension") == .integer(4032))
        #expect(properties.exifValue("{Exif}", "ImageUniqueID") == .text("0123456789ABCDEF0123456789ABCDEF"))
        guard case .number(let latitude) = properties.exifValue("{GPS}", "Latitude"),
              case .number(let longitude) = properties.exifValue("{GPS}", "Longitude") else {
            Issue.record("no coordinates")
            return
        }
        #expect(abs(latitude - -22.9519160) < 1e-6)
        #expect(abs(longitude - -43.2105) < 1e-6)
        #expect(properties.exifValue("{GPS}", "Altitude") == .number(-5))
    }

    @Test("A plain JPEG: no metadata, no mark; gray is 4:0:0; 4:4:4 is recognised")
    func plain() throws {
        let gray = try ImageInspection.describe(MemoryByteSource(JPEGTestSupport.encode(width: 9, height: 7, components: 1)))
        #expect(gray.primary?.chroma == "4:0:0" && gray.images.first?.components == 1)
        #expect(gray.metadata == ImageProperties.MetadataSizes())
        #expect(gray.provenance == nil && gray.exifGroups.isEmpty && gray.primary?.icc == nil)
        let full = try ImageInspection.describe(MemoryByteSource(JPEGTestSupport.encode(width: 9, height: 7, subsampling: .s444)))
        #expect(full.primary?.chroma == "4:4:4")
        #expect(full.images.first?.displaySize == ImageSize(width: 9, height: 7))
    }

    @Test("An ICC profile with a chunk missing is reported, not guessed")
    func missingChunk() throws {
        let jpeg = try JPEGTestSupport.encode(width: 8, height: 8, icc: try Self.largeProfile())
        let header = try #require(JPEGSegments(jpeg))
        let second = try #require(header.segments.filter { $0.marker == 0xE2 }.last)
        let cut = Array(jpeg[..<second.range.lowerBound] + jpeg[second.range.upperBound...])
        let properties = try ImageInspection.describe(MemoryByteSource(cut))
        #expect(properties.primary?.icc == nil && properties.metadata.icc == nil)
        #expect(properties.warnings.contains { $0.contains("ICC profile") })
    }

    @Test("Unreadable EXIF is a warning; the rest is still described")
    func badEXIF() throws {
        let jpeg = try JPEGTestSupport.encode(width: 8, height: 8, markers: [(0xE1, Array("Exif\0\0II*\0\u{FF}\u{FF}\u{FF}\u{7F}".utf8))])
        let properties = try ImageInspection.describe(MemoryByteSource(jpeg))
        #expect(properties.warnings.contains { $0.hasPrefix("EXIF:") })
        #expect(properties.primary?.chroma == "4:2:0")
    }

    @Test("Broken JPEG structure and other formats are errors that say why")
    func errors() throws {
        let jpeg = try JPEGTestSupport.encode(width: 8, height: 8)
        #expect(throws: InspectError.self) { try ImageInspection.describe(MemoryByteSource(Array(jpeg.prefix(40)))) }
        do {
            _ = try ImageInspection.describe(MemoryByteSource([0x89] + Array("PNG\r\n\u{1A}\n".utf8) + [0, 0]))
            Issue.record("PNG described")
        } catch {
            #expect(error.description == "not a HEIF or JPEG image: looks like PNG")
        }
        // A header with no frame before the scan.
        let noFrame: [UInt8] = [0xFF, 0xD8] + JPEGTestSupport.segment(0xE0, [1, 2]) + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
        do {
            _ = try ImageInspection.describe(MemoryByteSource(noFrame))
            Issue.record("described without a frame header")
        } catch {
            #expect(error.description.contains("SOF"))
        }
    }

    /// An XMP APP1 payload whose one description has `properties` (attribute form, `hdrgm:` declared).
    static func hdrgmXMP(_ properties: String) -> (Int, [UInt8]) {
        (0xE1, JPEGAPPSignature.xmp + Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:hdrgm=\"http://ns.adobe.com/hdr-gain-map/1.0/\" \(properties)/></rdf:RDF></x:xmpmeta>").utf8))
    }

    @Test("Ultra HDR by Adobe's XMP alone: the gain map is the MP image whose XMP has hdrgm:GainMapMax, its headroom hdrgm:HDRCapacityMax")
    func ultraHDRXMPOnly() throws {
        let base = try JPEGTestSupport.encode(width: 32, height: 16, markers: [Self.hdrgmXMP("hdrgm:Version=\"1.0\"")])
        let gain = try JPEGTestSupport.encode(width: 16, height: 8, components: 1,
                                              markers: [Self.hdrgmXMP("hdrgm:Version=\"1.0\" hdrgm:GainMapMax=\"1.5\" hdrgm:HDRCapacityMax=\"1.5\"")])
        let joined = try #require(MultiPictureFormat.join([(base, .baselinePrimary), (gain, .undefined)]))
        let properties = try ImageInspection.describe(MemoryByteSource(joined))
        let gainMap = try #require(properties.gainMap)
        #expect(gainMap.image == 2 && gainMap.size == ImageSize(width: 16, height: 8))
        #expect(gainMap.hdrgm && !gainMap.iso21496 && gainMap.announced && gainMap.metadata == nil)
        #expect(gainMap.headrooms?.base == 0 && gainMap.headrooms?.alternate == 1.5)
        #expect(properties.warnings.isEmpty)
        #expect(InspectText.describe(gainMap) == "image 2, 16×8, Ultra HDR (hdrgm XMP): headroom 0 → 1.5 stops")
    }

    @Test("A primary that announces a gain map no MP image carries: a warning, no gain map; an MPO is no Ultra HDR file")
    func ultraHDRMissing() throws {
        let base = try JPEGTestSupport.encode(width: 32, height: 16, markers: [Self.hdrgmXMP("hdrgm:Version=\"1.0\""),
                                                                             (0xE2, JPEGAPPSignature.iso21496 + [0, 0, 0, 0])])
        let plain = try JPEGTestSupport.encode(width: 16, height: 8)
        let joined = try #require(MultiPictureFormat.join([(base, .baselinePrimary), (plain, .undefined)]))
        let properties = try ImageInspection.describe(MemoryByteSource(joined))
        #expect(properties.gainMap == nil)
        #expect(properties.warnings == ["the primary announces a gain map (hdrgm:Version, an ISO 21496-1 APP2), but no Multi-Picture image carries one"])
        let mpo = try #require(MultiPictureFormat.join([(plain, .disparity), (plain, .disparity)]))
        let stereo = try ImageInspection.describe(MemoryByteSource(mpo))
        #expect(stereo.gainMap == nil && stereo.warnings.isEmpty && stereo.images.count == 2)
    }
}
