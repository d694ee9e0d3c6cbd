import CJPEGPlanes
import Foundation
import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JJPEGCodec

extension SyntheticPlanes {
    /// PSNR in dB of `decoded`'s `component` against this plane (capped at 99 dB).
    func psnr(_ decoded: DecodedPlanes, _ component: Int) -> Double {
        let size = sizes[component]
        var squares = 0.0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let difference = Double(decoded.samples[component][y * size.width + x]) - Double(sample(component, x, y))
                squares += difference * difference
            }
        }
        let mse = squares / Double(size.width * size.height)
        return mse == 0 ? 99 : min(99, 10 * log10(255 * 255 / mse))
    }
}

/// The component planes of a JPEG as stored (`cjpegplanes_decode`, test support).
struct DecodedPlanes {
    /// 0 decoded, 1 decoded with warnings, -1 failed.
    let code: Int32
    let warnings: Int
    let width: Int
    let height: Int
    let sizes: [(width: Int, height: Int)]
    let samples: [[UInt8]]

    init(_ bytes: [UInt8]) {
        var layout = cjpegplanes_result()
        var buffer: UnsafeMutablePointer<UInt8>?
        code = bytes.withUnsafeBufferPointer { cjpegplanes_decode($0.baseAddress, $0.count, &buffer, &layout) }
        defer { free(buffer) }
        warnings = Int(layout.warnings)
        (width, height) = layout.count > 0 ? (Int(layout.width.0), Int(layout.height.0)) : (0, 0)
        let widths = [layout.width.0, layout.width.1, layout.width.2].map(Int.init)
        let heights = [layout.height.0, layout.height.1, layout.height.2].map(Int.init)
        let offsets = [layout.offset.0, layout.offset.1, layout.offset.2]
        sizes = (0..<Int(layout.count)).map { (widths[$0], heights[$0]) }
        samples = (0..<Int(layout.count)).map { component in
            guard let buffer else { return [] }
            return Array(UnsafeBufferPointer(start: buffer + offsets[component], count: widths[component] * heights[component]))
        }
    }
}

@Suite("JPEG raw YCbCr input")
struct JPEGRawWriterTests {
    static let sizes: [(Int, Int)] = [(64, 48), (101, 37), (17, 9), (1, 1), (4000, 33)]

    static func encodeRaw(_ planes: SyntheticPlanes, chunk: Int? = nil) throws -> [UInt8] {
        try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: planes.width, height: planes.height, components: planes.sizes.count, quality: 90)
            try planes.writeRaw(to: writer, chunk: chunk ?? writer.rawRowsPerCall)
            try writer.finish()
        }
    }

    static func encodeScanlines(_ planes: SyntheticPlanes) throws -> [UInt8] {
        let components = planes.sizes.count
        let pixels = planes.scanlines()
        return try JPEGTestSupport.encode { writer in
            try writer.start(width: planes.width, height: planes.height, components: components, quality: 90, subsampling: .s420)
            try pixels.withUnsafeBufferPointer { buffer in
                try writer.writeRows(buffer.baseAddress!, stride: planes.width * components, count: planes.height)
            }
            try writer.finish()
        }
    }

    /// Decodes `bytes` and checks it is clean and of `planes`' sizes.
    static func decodeChecked(_ bytes: [UInt8], like planes: SyntheticPlanes) throws -> DecodedPlanes {
        let decoded = DecodedPlanes(bytes)
        #expect(decoded.code == 0)
        #expect(decoded.warnings == 0)
        #expect(decoded.width == planes.width && decoded.height == planes.height)
        try #require(decoded.sizes.count == planes.sizes.count)
        for (got, want) in zip(decoded.sizes, planes.sizes) {
            #expect(got == want)
        }
        return decoded
    }

    @Test("4:2:0 planes encode without conversion, as faithfully as the RGB path", arguments: sizes)
    func colour(width: Int, height: Int) throws {
        let planes = SyntheticPlanes(width: width, height: height, components: 3)
        let raw = try Self.decodeChecked(Self.encodeRaw(planes, chunk: 16), like: planes)
        let viaRGB = try Self.decodeChecked(Self.encodeScanlines(planes), like: planes)
        let floors = [40.0, 38, 38]
        for component in 0..<3 {
            let psnr = planes.psnr(raw, component)
            #expect(psnr >= floors[component], "component \(component): \(psnr) dB")
            #expect(abs(psnr - planes.psnr(viaRGB, component)) <= 1, "component \(component)")
        }
    }

    @Test("Gray planes decode to exactly what gray scanlines decode to (only the Huffman tables differ)", arguments: sizes)
    func gray(width: Int, height: Int) throws {
        let planes = SyntheticPlanes(width: width, height: height, components: 1)
        let decoded = try Self.decodeChecked(Self.encodeRaw(planes), like: planes)
        #expect(planes.psnr(decoded, 0) >= 40)
        let viaScanlines = try Self.decodeChecked(Self.encodeScanlines(planes), like: planes)
        #expect(decoded.samples == viaScanlines.samples)
    }

    @Test("Rows per call: any multiple of the iMCU height, or all remaining rows, gives the same bytes")
    func chunking() throws {
        let planes = SyntheticPlanes(width: 101, height: 37, components: 3)
        let reference = try Self.encodeRaw(planes, chunk: 16)
        #expect(try Self.encodeRaw(planes, chunk: 32) == reference)
        #expect(try Self.encodeRaw(planes, chunk: 37) == reference)
    }

    @Test("The iMCU height is 16 for 4:2:0, 8 for gray, 0 before start")
    func rowsPerCall() throws {
        _ = try JPEGTestSupport.encode { writer in
            #expect(writer.rawRowsPerCall == 0)
            try writer.startRaw(width: 8, height: 8, components: 3, quality: 90)
            #expect(writer.rawRowsPerCall == 16)
        }
        _ = try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: 8, height: 8, components: 1, quality: 90)
            #expect(writer.rawRowsPerCall == 8)
        }
    }

    /// Expects `body` to throw a JPEGError at `stage` whose message contains `text`.
    static func expectRefusal(_ stage: String, _ text: String, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("no error; expected \(stage): \(text)")
        } catch let error as JPEGError {
            #expect(error.stage == stage && error.message.contains(text), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("Misuse is refused with a message, never a crash, and a refused call changes nothing")
    func misuse() throws {
        let planes = SyntheticPlanes(width: 64, height: 48, components: 3)
        let top = planes.planes(fromRow: 0)
        let reference = try Self.encodeRaw(planes)
        let bytes = try JPEGTestSupport.encode { writer in
            let write = { (rows: Int) throws in try writer.writeRaw(planes: top, strides: planes.strides, rows: rows) }
            Self.expectRefusal("rows", "without start_raw") { try write(16) }
            Self.expectRefusal("start", "1 or 3 components") { try writer.startRaw(width: 64, height: 48, components: 2, quality: 90) }
            Self.expectRefusal("start", "out of range") { try writer.startRaw(width: -1, height: 48, components: 3, quality: 90) }
            try writer.startRaw(width: 64, height: 48, components: 3, quality: 90)
            Self.expectRefusal("start", "already started") { try writer.startRaw(width: 64, height: 48, components: 3, quality: 90) }
            Self.expectRefusal("rows", "not a multiple of 16") { try write(10) }
            Self.expectRefusal("rows", "pass the image height 48") { try write(64) }
            Self.expectRefusal("rows", "out of range") { try write(-16) }
            Self.expectRefusal("rows", "plane 2 missing") {
                try writer.writeRaw(planes: Array(top.prefix(2)), strides: Array(planes.strides.prefix(2)), rows: 16)
            }
            Self.expectRefusal("rows", "need 1 to 3") { try writer.writeRaw(planes: top, strides: [1, 2], rows: 16) }
            try planes.writeRaw(to: writer, chunk: 16)
            Self.expectRefusal("rows", "pass the image height 48") { try write(16) }
            try writer.finish()
        }
        #expect(bytes == reference)
    }

    @Test("libjpeg's own state checks still hold: scanlines into a raw image, finishing early")
    func libjpegRefusals() throws {
        let planes = SyntheticPlanes(width: 64, height: 48, components: 3)
        let top = planes.planes(fromRow: 0)
        _ = try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: 64, height: 48, components: 3, quality: 90)
            Self.expectRefusal("rows", "state") { try writer.writeRows(top[0], stride: planes.strides[0], count: 1) }
            Self.expectRefusal("rows", "without start_raw") { try writer.writeRaw(planes: top, strides: planes.strides, rows: 16) }
        }
        _ = try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: 64, height: 48, components: 3, quality: 90)
            try writer.writeRaw(planes: top, strides: planes.strides, rows: 16)
            Self.expectRefusal("finish", "too few") { try writer.finish() }
        }
        _ = try JPEGTestSupport.encode { writer in
            try writer.start(width: 64, height: 48, components: 3, quality: 90, subsampling: .s420)
            Self.expectRefusal("rows", "without start_raw") { try writer.writeRaw(planes: top, strides: planes.strides, rows: 16) }
        }
    }

    @Test("Markers written between startRaw and the first rows reach the file")
    func markers() throws {
        let planes = SyntheticPlanes(width: 17, height: 9, components: 3)
        let bytes = try JPEGTestSupport.encode { writer in
            try writer.startRaw(width: 17, height: 9, components: 3, quality: 90)
            try writer.writeMarker(0xE1, Array("Exif\0\0MM".utf8) + [0, 42, 0, 0, 0, 8])
            try writer.writeMarker(0xE1, JPEGAPPSignature.xmp + Array("<x:xmpmeta/>".utf8))
            try writer.writeICC([UInt8](repeating: 7, count: 300))
            try planes.writeRaw(to: writer, chunk: 16)
            try writer.finish()
        }
        #expect(JPEGMarkerFilter.metadataPresent(in: bytes) == .init(exif: true, xmp: true, icc: true))
        #expect(Array(bytes.prefix(11)) == [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF\0".utf8))
        _ = try Self.decodeChecked(bytes, like: planes)
    }
}
