import Foundation
import H2JContainer
import H2JSupport
import H2JTiles
import H2JDe265

/// Upright 8-bit planes: Y, and for colour Cb/Cr at (w+1)/2 × (h+1)/2 (4:2:0).
package struct YCbCrPlanes: Equatable {
    package let width: Int
    package let height: Int
    package var y: [UInt8]
    package var cb: [UInt8]
    package var cr: [UInt8]
    package var monochrome: Bool { cb.isEmpty }
    package var chromaWidth: Int { (width + 1) / 2 }
    package var chromaHeight: Int { (height + 1) / 2 }

    /// RGB with JFIF (BT.601 full range) maths and nearest-neighbour chroma, as libheif
    /// converts 4:2:0 to RGB.
    package var rgb: RGBPicture {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for v in 0..<height {
            for u in 0..<width {
                let luma = Double(y[v * width + u])
                var rgb = (luma, luma, luma)
                if !monochrome {
                    let c = (v / 2) * chromaWidth + u / 2
                    let b = Double(cb[c]) - 128, r = Double(cr[c]) - 128
                    rgb = (luma + 1.402 * r, luma - 0.344136 * b - 0.714136 * r, luma + 1.772 * b)
                }
                let i = 3 * (v * width + u)
                pixels[i] = UInt8(max(0, min(255, rgb.0.rounded())))
                pixels[i + 1] = UInt8(max(0, min(255, rgb.1.rounded())))
                pixels[i + 2] = UInt8(max(0, min(255, rgb.2.rounded())))
            }
        }
        return RGBPicture(width: width, height: height, pixels: pixels)
    }

    /// Largest absolute difference per plane.
    package func maxDifference(_ other: YCbCrPlanes) -> (y: Int, chroma: Int) {
        func worst(_ a: [UInt8], _ b: [UInt8]) -> Int { zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0 }
        return (worst(y, other.y), max(worst(cb, other.cb), worst(cr, other.cr)))
    }
}

/// Collects the planes the tile engine streams out (the JPEG writer's place in tests).
package final class PlaneCollector: RawPlaneSink {
    package private(set) var planes: YCbCrPlanes
    /// JPEG's iMCU height, as libjpeg would ask for.
    package let rawRowsPerCall: Int

    package init(width: Int, height: Int, monochrome: Bool) {
        planes = YCbCrPlanes(width: width, height: height, y: [], cb: [], cr: [])
        rawRowsPerCall = monochrome ? 8 : 16
    }

    package func writeRaw(planes sources: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        for r in 0..<rows {
            planes.y += UnsafeBufferPointer(start: sources[0] + r * strides[0], count: planes.width)
        }
        guard sources.count == 3 else { return }
        for r in 0..<((rows + 1) / 2) {
            planes.cb += UnsafeBufferPointer(start: sources[1] + r * strides[1], count: planes.chromaWidth)
            planes.cr += UnsafeBufferPointer(start: sources[2] + r * strides[2], count: planes.chromaWidth)
        }
    }
}

/// The tile engine's output planes for `path`, or nil when the engine would not take it;
/// with `ahead`, its lanes started before the sink (`TileEngine.start`), one left out
/// until the run.
package enum EnginePlanes {
    /// `decoders`: libde265's unless said otherwise (`TileDecoderPool.libavcodec()`).
    package static func decode(_ path: String, lanes: Int = 2, ahead: Bool = false,
                               decoders: TileDecoderPool = .libde265()) throws
        -> (image: TiledImage, structure: HEIFStructure, planes: YCbCrPlanes)? {
        let file = try SourceFile(path: path)
        let structure = try HEIFStructure.read(from: file.byteSource)
        let primary = try structure.primaryImage()
        try structure.checkItemsInFile(size: file.size)
        guard case .tiles(let image) = try EngineChoice.make(structure, image: primary, source: file.byteSource) else { return nil }
        let collector = PlaneCollector(width: image.geometry.width, height: image.geometry.height, monochrome: image.monochrome)
        try withExtendedLifetime(file) {
            let engine = TileEngine(image: image, structure: structure, source: file.byteSource, lanes: lanes, decoders: decoders)
            let started = ahead ? try engine.start(rowsPerCall: collector.rawRowsPerCall, ahead: true) : nil
            try engine.run(into: collector, started: started)
        }
        return (image, structure, collector.planes)
    }
}

/// An independent decode of the same tiles: ffmpeg's HEVC decoder, the grid assembled
/// and the transforms applied one at a time on whole planes, and colour re-encoded in
/// floating point. Shares only the container reader with the engine (to find the tiles).
package enum TileReference {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    /// The reference planes, and whether any tile's colour had to be re-encoded.
    package static func planes(_ path: String, _ image: TiledImage, _ structure: HEIFStructure) throws -> (planes: YCbCrPlanes, reencoded: Bool) {
        let file = try SourceFile(path: path)
        // One Annex B stream: every tile, each preceded by its parameter sets.
        var stream: [UInt8] = []
        let startCode: [UInt8] = [0, 0, 0, 1]
        for tile in image.tiles {
            let configuration = image.configurations[tile.configuration]
            for set in configuration.parameterSets { stream += startCode + set }
            let data = try structure.itemData(tile.id, from: file.byteSource, maxBytes: 1 << 28)
            var offset = 0
            while offset + configuration.lengthSize <= data.count {
                let length = data[offset..<(offset + configuration.lengthSize)].reduce(0) { $0 << 8 | Int($1) }
                offset += configuration.lengthSize
                guard offset + length <= data.count else { throw Failure(description: "tile \(tile.id): NAL past the end") }
                stream += startCode + data[offset..<(offset + length)]
                offset += length
            }
        }
        let directory = NSTemporaryDirectory() + "heic2jpg-tiles-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/tiles.hevc", output = directory + "/tiles.yuv"
        try Data(stream).write(to: URL(fileURLWithPath: input))
        // The decoder's own sample format, unconverted: naming a pixel format could make
        // ffmpeg convert the range (full-range streams decode as yuvj420p).
        try ffmpeg(["-v", "error", "-f", "hevc", "-i", input, "-fps_mode", "passthrough", "-c:v", "rawvideo", "-f", "rawvideo", output])
        let frames = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let (tw, th) = (image.tileWidth, image.tileHeight)
        let frameSize = tw * th + (image.monochrome ? 0 : 2 * (tw / 2) * (th / 2))
        guard frames.count == frameSize * image.tiles.count else {
            throw Failure(description: "ffmpeg gave \(frames.count) bytes for \(image.tiles.count) tiles of \(frameSize)")
        }
        let colour = try probeColour(input)

        // Assemble the canvas.
        let geometry = image.geometry
        let (w, h) = (geometry.canvasWidth, geometry.canvasHeight)
        var canvas = YCbCrPlanes(width: w, height: h, y: .init(repeating: 0, count: w * h),
                                 cb: image.monochrome ? [] : .init(repeating: 0, count: ((w + 1) / 2) * ((h + 1) / 2)), cr: [])
        canvas.cr = canvas.cb
        var reencoded = false
        for (index, tile) in image.tiles.enumerated() {
            let frame = index * frameSize
            let (x0, y0) = (tile.column * tw, tile.row * th)
            for y in 0..<th where y0 + y < h {
                for x in 0..<tw where x0 + x < w { canvas.y[(y0 + y) * w + x0 + x] = frames[frame + y * tw + x] }
            }
            guard !image.monochrome else { continue }
            let (ctw, cth, cw, ch) = (tw / 2, th / 2, (w + 1) / 2, (h + 1) / 2)
            for y in 0..<cth where y0 / 2 + y < ch {
                for x in 0..<ctw where x0 / 2 + x < cw {
                    canvas.cb[(y0 / 2 + y) * cw + x0 / 2 + x] = frames[frame + tw * th + y * ctw + x]
                    canvas.cr[(y0 / 2 + y) * cw + x0 / 2 + x] = frames[frame + tw * th + ctw * cth + y * ctw + x]
                }
            }
            // The tile item's nclx overrides the bitstream's VUI, as in libheif.
            let source = tile.nclx.map { (matrix: $0.matrix, fullRange: $0.fullRange, primaries: $0.primaries) } ?? colour
            reencoded = toJFIF(&canvas, x0: x0, y0: y0, width: min(tw, w - x0), height: min(th, h - y0), source) || reencoded
        }
        let transforms = try structure.transforms(of: structure.primaryID)
        return (transforms.reduce(canvas) { apply($1, to: $0) }, reencoded)
    }

    package static func ffmpeg(_ arguments: [String], executable: String = "ffmpeg") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        do { try process.run() } catch {
            throw Failure(description: "\(executable) not found: run Scripts/setup --test")
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "\(executable) failed: \(text)") }
    }

    /// The VUI colour description of the stream's first SPS, via ffprobe.
    package static func probeColour(_ path: String) throws -> (matrix: Int, fullRange: Bool, primaries: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error", "-f", "hevc", "-select_streams", "v:0", "-show_entries",
                             "stream=color_range,color_space,color_primaries", "-of", "default=noprint_wrappers=1", path]
        let out = Pipe()
        process.standardOutput = out
        do { try process.run() } catch { throw Failure(description: "ffprobe not found: run Scripts/setup --test") }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        let matrices = ["gbr": 0, "bt709": 1, "fcc": 4, "bt470bg": 5, "smpte170m": 6, "smpte240m": 7, "ycgco": 8,
                        "bt2020nc": 9, "bt2020c": 10, "chroma-derived-nc": 12, "chroma-derived-c": 13]
        let primaries = ["bt709": 1, "bt470m": 4, "bt470bg": 5, "smpte170m": 6, "smpte240m": 7, "film": 8, "bt2020": 9,
                         "smpte428": 10, "smpte431": 11, "smpte432": 12, "jedec-p22": 22]
        // Absent VUI: HEVC's defaults (unspecified matrix, limited range).
        return (matrices[fields["color_space"] ?? ""] ?? 2, fields["color_range"] == "pc", primaries[fields["color_primaries"] ?? ""] ?? 2)
    }

    /// Re-encodes a canvas region in JFIF, in floating point: each luma sample with its
    /// block's chroma; each chroma sample with the mean luma of its block.
    /// Returns false when the source already is JFIF and nothing changed.
    @discardableResult
    package static func toJFIF(_ planes: inout YCbCrPlanes, x0: Int, y0: Int, width: Int, height: Int,
                       _ colour: (matrix: Int, fullRange: Bool, primaries: Int)) -> Bool {
        guard YCbCrConversion(matrix: colour.matrix, fullRange: colour.fullRange, primaries: colour.primaries) != nil else { return false }
        let (kr, kb) = NCLX.lumaWeights(matrix: colour.matrix, primaries: colour.primaries)
        let full = colour.fullRange
        func rgb(_ y: Double, _ cb: Double, _ cr: Double) -> (Double, Double, Double) {
            // Limited range expands as libheif does (256/219, 256/224; see YCbCrConversion).
            let yy = full ? y : (y - 16) * 256 / 219
            let b = full ? cb - 128 : (cb - 128) * 256 / 224, r = full ? cr - 128 : (cr - 128) * 256 / 224
            switch colour.matrix {
            case 0: return (r + 128, yy, b + 128)
            case 8: return (yy - b + r, yy + b, yy - b - r)
            default:
                let red = yy + 2 * (1 - kr) * r, blue = yy + 2 * (1 - kb) * b
                return (red, (yy - kr * red - kb * blue) / (1 - kr - kb), blue)
            }
        }
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        let w = planes.width, cw = planes.chromaWidth
        for by in stride(from: y0, to: y0 + height, by: 2) {
            for bx in stride(from: x0, to: x0 + width, by: 2) {
                let c = (by / 2) * cw + bx / 2
                let cb = planes.monochrome ? 128 : Double(planes.cb[c]), cr = planes.monochrome ? 128 : Double(planes.cr[c])
                var sum = 0.0, count = 0.0
                for y in by..<min(by + 2, y0 + height) {
                    for x in bx..<min(bx + 2, x0 + width) {
                        let luma = Double(planes.y[y * w + x])
                        sum += luma
                        count += 1
                        let (r, g, b) = rgb(luma, cb, cr)
                        planes.y[y * w + x] = clamp(0.299 * r + 0.587 * g + 0.114 * b)
                    }
                }
                guard !planes.monochrome else { continue }
                let (r, g, b) = rgb(sum / count, cb, cr)
                let luma = 0.299 * r + 0.587 * g + 0.114 * b
                planes.cb[c] = clamp(128 + (b - luma) / 1.772)
                planes.cr[c] = clamp(128 + (r - luma) / 1.402)
            }
        }
        return true
    }

    /// One transform on whole planes, the obvious way.
    package static func apply(_ transform: ImageTransform, to planes: YCbCrPlanes) -> YCbCrPlanes {
        func map(_ plane: [UInt8], _ w: Int, _ h: Int, _ nw: Int, _ nh: Int, _ from: (Int, Int) -> (Int, Int)) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: nw * nh)
            for v in 0..<nh {
                for u in 0..<nw {
                    let (x, y) = from(u, v)
                    out[v * nw + u] = plane[y * w + x]
                }
            }
            return out
        }
        let (w, h, cw, ch) = (planes.width, planes.height, planes.chromaWidth, planes.chromaHeight)
        func both(_ p: YCbCrPlanes, _ nw: Int, _ nh: Int, luma: (Int, Int) -> (Int, Int), chroma: (Int, Int) -> (Int, Int)) -> YCbCrPlanes {
            var out = YCbCrPlanes(width: nw, height: nh, y: map(p.y, p.width, p.height, nw, nh, luma), cb: [], cr: [])
            if !p.monochrome {
                out.cb = map(p.cb, p.chromaWidth, p.chromaHeight, (nw + 1) / 2, (nh + 1) / 2, chroma)
                out.cr = map(p.cr, p.chromaWidth, p.chromaHeight, (nw + 1) / 2, (nh + 1) / 2, chroma)
            }
            return out
        }
        switch transform {
        case .rotation(let turns):
            return (0..<(turns % 4)).reduce(planes) { p, _ in
                both(p, p.height, p.width, luma: { u, v in (p.width - 1 - v, u) }, chroma: { u, v in (p.chromaWidth - 1 - v, u) })
            }
        case .mirror(.horizontal):
            return both(planes, w, h, luma: { u, v in (w - 1 - u, v) }, chroma: { u, v in (cw - 1 - u, v) })
        case .mirror(.vertical):
            return both(planes, w, h, luma: { u, v in (u, h - 1 - v) }, chroma: { u, v in (u, ch - 1 - v) })
        case .cleanAperture(let aperture):
            guard let r = aperture.cropRect(imageWidth: w, imageHeight: h) else { return planes }
            return both(planes, r.width, r.height, luma: { u, v in (u + r.x, v + r.y) }, chroma: { u, v in (u + r.x / 2, v + r.y / 2) })
        }
    }
}
