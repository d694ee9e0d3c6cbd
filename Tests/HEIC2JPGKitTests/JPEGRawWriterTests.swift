import CJPEGCodec
import Foundation
import Testing
@testable import H2JJPEG
@testable import H2JJPEGCodec

/// Synthetic sample planes laid out the way the tile engine hands them over: each row is
/// the component's width padded to whole 8-sample blocks with edge replicas, then a few
/// garbage bytes up to the stride (which must never reach the JPEG).
final class SyntheticPlanes {
    let width: Int
    let height: Int
    /// Real size of each component: Y (or gray), then Cb and Cr.
    let sizes: [(width: Int, height: Int)]
    let strides: [Int]
    private let buffers: [UnsafeMutableBufferPointer<UInt8>]

    init(width: Int, height: Int, components: Int) {
        self.width = width
        self.height = height
        let chroma = ((width + 1) / 2, (height + 1) / 2)
        sizes = components == 3 ? [(width, height), chroma, chroma] : [(width, height)]
        strides = sizes.map { ($0.width + 7) / 8 * 8 + 5 }
        var buffers: [UnsafeMutableBufferPointer<UInt8>] = []
        for (component, size) in sizes.enumerated() {
            let stride = strides[component]
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: stride * size.height)
            buffer.initialize(repeating: 0xEE)
            for y in 0..<size.height {
                for x in 0..<((size.width + 7) / 8 * 8) {
                    buffer[y * stride + x] = Self.sample(component, x: min(x, size.width - 1), y: y, size: size)
                }
            }
            buffers.append(buffer)
        }
        self.buffers = buffers
    }

    deinit { buffers.forEach { $0.deallocate() } }

    /// Smooth gradients (spanning at least 32 samples, so small images stay smooth) plus a
    /// sharp diagonal edge in Y and Cr, kept inside the RGB gamut so that the RGB path
    /// never clips.
    private static func sample(_ component: Int, x: Int, y: Int, size: (width: Int, height: Int)) -> UInt8 {
        let fx = Double(x) / Double(max(size.width - 1, 32))
        let fy = Double(y) / Double(max(size.height - 1, 32))
        let edge = 2 * x + y >= size.width + size.height / 2
        let value: Double
        switch component {
        case 0: value = 70 + 70 * fx + 12 * sin(Double(y) * 0.4) + (edge ? 24 : 0)
        case 1: value = 128 + 25 * cos(Double(x) * 0.15 + Double(y) * 0.1)
        default: value = 128 + 35 * (2 * fy - 1) + (edge ? 7 : -7)
        }
        return UInt8(value.rounded())
    }

    /// Sample `x`, `y` of `component` (real coordinates).
    func sample(_ component: Int, _ x: Int, _ y: Int) -> UInt8 {
        buffers[component][y * strides[component] + x]
    }

    /// The planes for a `writeRaw` call starting at luma row `row`.
    func planes(fromRow row: Int) -> [UnsafePointer<UInt8>] {
        buffers.enumerated().map { component, buffer in
            let componentRow = component == 0 ? row : row / 2
            return UnsafePointer(buffer.baseAddress! + componentRow * strides[component])
        }
    }

    /// Feeds every row through `writeRaw`, `chunk` rows per call and the rest in the last.
    func writeRaw(to writer: JPEGWriter, chunk: Int) throws {
        var row = 0
        while row < height {
            let rows = min(chunk, height - row)
            try writer.writeRaw(planes: planes(fromRow: row), strides: strides, rows: rows)
            row += rows
        }
    }

    /// Interleaved RGB (or the gray plane itself) by the JFIF equations, each chroma
    /// sample covering its 2×2 luma block: the input of the existing scanline path.
    func scanlines() -> [UInt8] {
        guard sizes.count == 3 else { return (0..<height).flatMap { y in (0..<width).map { sample(0, $0, y) } } }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let luma = Double(sample(0, x, y))
                let cb = Double(sample(1, x / 2, y / 2)) - 128, cr = Double(sample(2, x / 2, y / 2)) - 128
                for value in [luma + 1.402 * cr, luma - 0.344136 * cb - 0.714136 * cr, luma + 1.772 * cb] {
                    rgb.append(UInt8(min(max(value.rounded(), 0), 255)))
                }
            }
        }
        return rgb
    }

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

/// The component planes of a JPEG as stored (`cjpegcodec_decode_planes`).
struct DecodedPlanes {
    let code: Int32
    let warnings: Int
    let width: Int
    let height: Int
    let sizes: [(width: Int, height: Int)]
    let samples: [[UInt8]]

    init(_ bytes: [UInt8]) {
        var info = cjpegcodec_decode_info()
        var layout = cjpegcodec_planes()
        var buffer: UnsafeMutablePointer<UInt8>?
        code = bytes.withUnsafeBufferPointer { cjpegcodec_decode_planes($0.baseAddress, $0.count, &buffer, &layout, &info) }
        defer { cjpegcodec_free(buffer) }
        (warnings, width, height) = (Int(info.warnings), Int(info.width), Int(info.height))
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

    /// Runs `body` on a writer whose output goes to a temporary file; returns the bytes.
    static func encode(_ body: (JPEGWriter) throws -> Void) throws -> [UInt8] {
        let directory = TemporaryDirectory()
        let path = directory.path + "/out.jpg"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        do {
            let writer = try JPEGWriter(fd: fd)
            try body(writer)
        } catch {
            close(fd)
            throw error
        }
        close(fd)
        return try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) })
    }

    static func encodeRaw(_ planes: SyntheticPlanes, chunk: Int? = nil) throws -> [UInt8] {
        try encode { writer in
            try writer.startRaw(width: planes.width, height: planes.height, components: planes.sizes.count, quality: 90)
            try planes.writeRaw(to: writer, chunk: chunk ?? writer.rawRowsPerCall)
            try writer.finish()
        }
    }

    static func encodeScanlines(_ planes: SyntheticPlanes) throws -> [UInt8] {
        let components = planes.sizes.count
        let pixels = planes.scanlines()
        return try encode { writer in
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
        #expect(decoded.code == Int32(CJPEGCODEC_OK))
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
        _ = try Self.encode { writer in
            #expect(writer.rawRowsPerCall == 0)
            try writer.startRaw(width: 8, height: 8, components: 3, quality: 90)
            #expect(writer.rawRowsPerCall == 16)
        }
        _ = try Self.encode { writer in
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
        let bytes = try Self.encode { writer in
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
        _ = try Self.encode { writer in
            try writer.startRaw(width: 64, height: 48, components: 3, quality: 90)
            Self.expectRefusal("rows", "state") { try writer.writeRows(top[0], stride: planes.strides[0], count: 1) }
            Self.expectRefusal("rows", "without start_raw") { try writer.writeRaw(planes: top, strides: planes.strides, rows: 16) }
        }
        _ = try Self.encode { writer in
            try writer.startRaw(width: 64, height: 48, components: 3, quality: 90)
            try writer.writeRaw(planes: top, strides: planes.strides, rows: 16)
            Self.expectRefusal("finish", "too few") { try writer.finish() }
        }
        _ = try Self.encode { writer in
            try writer.start(width: 64, height: 48, components: 3, quality: 90, subsampling: .s420)
            Self.expectRefusal("rows", "without start_raw") { try writer.writeRaw(planes: top, strides: planes.strides, rows: 16) }
        }
    }

    @Test("Markers written between startRaw and the first rows reach the file")
    func markers() throws {
        let planes = SyntheticPlanes(width: 17, height: 9, components: 3)
        let bytes = try Self.encode { writer in
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
