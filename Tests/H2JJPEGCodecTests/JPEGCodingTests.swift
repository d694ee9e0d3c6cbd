import Foundation
import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JJPEGCodec

/// `--progressive`, `--optimize` and `--sampling` in the encoder: the frame header and
/// tables they write, on both the scanline and the raw-plane path, the lossless
/// transcoding of a JPEG's scans, and the size of libjpeg's coefficient buffer.
@Suite("JPEG coding options: progressive, optimised tables, chroma sampling")
struct JPEGCodingTests {
    static let codings = [JPEGCoding(), JPEGCoding(optimize: true), JPEGCoding(progressive: true),
                          JPEGCoding(progressive: true, optimize: true)]

    static func raw(_ planes: SyntheticPlanes, coding: JPEGCoding) throws -> [UInt8] {
        try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: planes.width, height: planes.height, components: planes.sizes.count, quality: 90,
                                subsampling: planes.subsampling, coding: coding)
            try planes.writeRaw(to: writer, chunk: writer.rawRowsPerCall)
            try writer.finish()
        }
    }

    static func rows(_ planes: SyntheticPlanes, subsampling: ChromaSubsampling, coding: JPEGCoding) throws -> [UInt8] {
        let components = planes.sizes.count, pixels = planes.scanlines()
        return try JPEGTestSupport.encode { writer in
            try writer.start(width: planes.width, height: planes.height, components: components, quality: 90,
                             subsampling: subsampling, coding: coding)
            try pixels.withUnsafeBufferPointer { try writer.writeRows($0.baseAddress!, stride: planes.width * components, count: planes.height) }
            try writer.finish()
        }
    }

    static func frame(_ jpeg: [UInt8]) throws -> JPEGFrameHeader {
        try #require(JPEGSegments(jpeg)?.frameHeader)
    }

    /// The payloads of every DHT segment, in order.
    static func huffmanTables(_ jpeg: [UInt8]) throws -> [[UInt8]] {
        let header = try #require(JPEGSegments(jpeg))
        return header.segments.filter { $0.marker == 0xC4 }.map { Array(jpeg[$0.payload]) }
    }

    /// Luma factors (h, v) for each sampling; chroma is always 1×1.
    static let lumaFactors: [ChromaSubsampling: (Int, Int)] = [.s420: (2, 2), .s422: (2, 1), .s444: (1, 1)]

    @Test("Progressive writes SOF2, otherwise SOF0, on both paths; every coding decodes to the same planes",
          arguments: [ChromaSubsampling.s420, .s422, .s444])
    func progressive(subsampling: ChromaSubsampling) throws {
        let planes = SyntheticPlanes(width: 101, height: 37, components: 3, subsampling: subsampling)
        let baseline = DecodedPlanes(try Self.raw(planes, coding: JPEGCoding()))
        #expect(baseline.code == 0)
        for coding in Self.codings {
            let raw = try Self.raw(planes, coding: coding), rows = try Self.rows(planes, subsampling: subsampling, coding: coding)
            for jpeg in [raw, rows] { #expect(try Self.frame(jpeg).marker == (coding.progressive ? 0xC2 : 0xC0), "\(coding)") }
            let decoded = DecodedPlanes(raw)
            #expect(decoded.code == 0 && decoded.warnings == 0)
            #expect(decoded.samples == baseline.samples, "the same coefficients, coded otherwise: \(coding)")
        }
    }

    @Test("Optimised tables differ from the standard ones and make the file smaller; the scanline path always optimised")
    func optimisedTables() throws {
        let planes = SyntheticPlanes(width: 256, height: 96, components: 3)
        let standard = try Self.raw(planes, coding: JPEGCoding()), optimised = try Self.raw(planes, coding: JPEGCoding(optimize: true))
        #expect(try Self.huffmanTables(standard) != Self.huffmanTables(optimised))
        #expect(optimised.count < standard.count, "\(optimised.count) vs \(standard.count) bytes")
        // The scanline path's default (what every libheif-decoded image gets) is optimised.
        #expect(try Self.rows(planes, subsampling: .s420, coding: JPEGCoding(optimize: true))
            == JPEGTestSupport.encode { writer in
                let pixels = planes.scanlines()
                try writer.start(width: 256, height: 96, components: 3, quality: 90, subsampling: .s420)
                try pixels.withUnsafeBufferPointer { try writer.writeRows($0.baseAddress!, stride: 256 * 3, count: 96) }
                try writer.finish()
            })
    }

    @Test("The frame header states each sampling's factors, on raw planes and on rows; planes keep their sizes",
          arguments: [ChromaSubsampling.s420, .s422, .s444])
    func samplingFactors(subsampling: ChromaSubsampling) throws {
        let planes = SyntheticPlanes(width: 35, height: 21, components: 3, subsampling: subsampling)
        let (h, v) = try #require(Self.lumaFactors[subsampling])
        for jpeg in [try Self.raw(planes, coding: JPEGCoding()), try Self.rows(planes, subsampling: subsampling, coding: JPEGCoding())] {
            let components = try Self.frame(jpeg).components
            #expect(components.map(\.horizontalSampling) == [h, 1, 1])
            #expect(components.map(\.verticalSampling) == [v, 1, 1])
        }
        let decoded = DecodedPlanes(try Self.raw(planes, coding: JPEGCoding()))
        #expect(decoded.sizes.map(\.width) == planes.sizes.map(\.width) && decoded.sizes.map(\.height) == planes.sizes.map(\.height))
        for component in 0..<3 { #expect(planes.psnr(decoded, component) >= 38, "component \(component)") }
    }

    @Test("The iMCU height is 16 for 4:2:0, 8 for 4:2:2 and 4:4:4")
    func rowsPerCall() throws {
        for (subsampling, rows) in [(ChromaSubsampling.s420, 16), (.s422, 8), (.s444, 8)] {
            _ = try JPEGTestSupport.encode { writer in
                try writer.startRaw(width: 8, height: 8, components: 3, quality: 90, subsampling: subsampling)
                #expect(writer.rawRowsPerCall == rows)
            }
        }
    }

    @Test("Transcoding is lossless: the same pixels, SOF2 or optimised tables, every APPn and COM kept in order")
    func transcoding() throws {
        let exif = Array("Exif\0\0MM".utf8) + [0, 42, 0, 0, 0, 8]
        let source = try JPEGTestSupport.encode { writer in
            let planes = SyntheticPlanes(width: 120, height: 64, components: 3)
            try writer.startRaw(width: 120, height: 64, components: 3, quality: 85)
            try writer.writeMarker(0xE1, exif)
            try writer.writeMarker(0xEB, Array("vendor".utf8))
            try writer.writeMarker(0xFE, Array("a comment".utf8))
            try planes.writeRaw(to: writer, chunk: 16)
            try writer.finish()
        }
        let appAndCOM = { (jpeg: [UInt8]) throws -> [[UInt8]] in
            let header = try #require(JPEGSegments(jpeg))
            return header.segments.filter { (0xE0...0xEF).contains($0.marker) || $0.marker == 0xFE }.map { [$0.marker] + jpeg[$0.payload] }
        }
        let pixels = try Reference(source)
        for coding in Self.codings.dropFirst() {
            let recoded = try JPEGTranscoding.transcode(source, coding: coding)
            #expect(try Self.frame(recoded).marker == (coding.progressive ? 0xC2 : 0xC0))
            #expect(try Reference(recoded) == pixels, "\(coding)")
            #expect(try appAndCOM(recoded) == appAndCOM(source))
            #expect(recoded.count < source.count, "standard tables in the source: \(recoded.count) vs \(source.count)")
        }
        // A progressive source stays progressive when only the tables are optimised.
        let progressive = try JPEGTranscoding.transcode(source, coding: JPEGCoding(progressive: true))
        #expect(try Self.frame(JPEGTranscoding.transcode(progressive, coding: JPEGCoding(optimize: true))).marker == 0xC2)
    }

    @Test("Transcoding refuses what is no clean JPEG, with libjpeg's message")
    func transcodingRefusals() throws {
        #expect(throws: JPEGError.self) { try JPEGTranscoding.transcode([], coding: JPEGCoding(optimize: true)) }
        #expect(throws: JPEGError.self) { try JPEGTranscoding.transcode([0xFF, 0xD8, 0xFF, 0xD9], coding: JPEGCoding(optimize: true)) }
        let whole = try JPEGTestSupport.encode(width: 64, height: 64)
        do {
            _ = try JPEGTranscoding.transcode(Array(whole.prefix(whole.count - 200)), coding: JPEGCoding(progressive: true))
            Issue.record("a truncated JPEG was transcoded")
        } catch {
            #expect(error.stage == "transcode" && !error.message.isEmpty, "\(error)")
        }
    }

    @Test("The coefficient buffer: blocks rounded up to whole MCUs, 128 bytes each")
    func coefficientMemory() {
        // 4032×3024 at 4:2:0: Y 504×378 blocks, Cb and Cr 252×189 each.
        #expect(JPEGCoefficientMemory.bytes(width: 4032, height: 3024, components: 3, subsampling: .s420) == (190_512 + 2 * 47_628) * 128)
        #expect(JPEGCoefficientMemory.bytes(width: 4032, height: 3024, components: 3, subsampling: .s444) == 3 * 190_512 * 128)
        #expect(JPEGCoefficientMemory.bytes(width: 4032, height: 3024, components: 1, subsampling: .s420) == 190_512 * 128)
        // 17×9 at 4:2:0: Y 3×2 blocks rounded to 4×2, chroma 2×1 each.
        #expect(JPEGCoefficientMemory.bytes(width: 17, height: 9, components: 3, subsampling: .s420) == (8 + 2 + 2) * 128)
        // 17×9 at 4:2:2: Y 3×2 rounded to 4×2, chroma 2×2 each.
        #expect(JPEGCoefficientMemory.bytes(width: 17, height: 9, components: 3, subsampling: .s422) == (8 + 4 + 4) * 128)
        #expect(JPEGCoefficientMemory.bytes(width: 0, height: 9, factors: [(1, 1)]) == nil)
        #expect(JPEGCoefficientMemory.bytes(width: 70_000, height: 9, factors: [(1, 1)]) == nil)
        #expect(JPEGCoefficientMemory.bytes(width: 8, height: 8, factors: [(0, 1)]) == nil)
        #expect(JPEGCoefficientMemory.bytes(width: 8, height: 8, factors: [(5, 1), (1, 1)]) == nil)
    }
}

/// A JPEG's decoded RGB (or gray) pixels, to compare two codings of one image.
private struct Reference: Equatable {
    let width: Int, height: Int, pixels: [UInt8]

    init(_ jpeg: [UInt8]) throws {
        let decoded = try DecodedJPEG(jpeg)
        width = decoded.width
        height = decoded.height
        pixels = (0..<decoded.height).flatMap { Array(UnsafeBufferPointer(start: decoded.row($0), count: decoded.width * decoded.components)) }
    }
}
