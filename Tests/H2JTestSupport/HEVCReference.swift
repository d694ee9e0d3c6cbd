import Foundation
import H2JContainer
import H2JTiles

/// Test streams made and decoded by an independent codec: ffmpeg (libx265 to encode,
/// its own HEVC decoder for the reference planes), and the x265 CLI where ffmpeg cannot
/// leave the VUI's video signal type out.
package enum HEVCReference {
    package struct Stream {
        package let name: String
        package let configuration: HEVCConfiguration
        /// NAL units after the parameter sets, each after a 4-byte big-endian length.
        package let data: [UInt8]
        /// ffmpeg's decode: planes one after another, rows tightly packed.
        package let reference: [UInt8]
    }

    package struct ToolError: Error, CustomStringConvertible {
        package let description: String
    }

    package static func tool(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw ToolError(description: "\(name) is not installed; these tests need it to make and check HEVC streams. `Scripts/setup --test` installs it.")
    }

    /// Runs a tool and returns its standard output; throws with its standard error on failure.
    package static func run(_ name: String, _ arguments: [String]) throws -> [UInt8] {
        let output = try ChildProcess.run(try tool(name), arguments)
        guard output.status == 0 else {
            throw ToolError(description: "\(name) \(arguments.joined(separator: " ")) failed: \(output.stderr)")
        }
        return [UInt8](output.stdout)
    }

    /// One frame of `testsrc2` encoded by libx265 through ffmpeg, as a test tile.
    /// `chroma` and `depth` must match `pixelFormat` (they go into the `hvcC`).
    package static func stream(width: Int, height: Int, pixelFormat: String, chroma: UInt8, depth: UInt8,
                               x265: String = "", in directory: TemporaryDirectory) throws -> Stream {
        let name = "\(width)x\(height)-\(pixelFormat)\(x265.isEmpty ? "" : "-" + x265)"
        let path = directory.path + "/\(name).hevc"
        _ = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height)", "-frames:v", "1",
                               "-c:v", "libx265", "-x265-params", "log-level=error" + (x265.isEmpty ? "" : ":" + x265),
                               "-pix_fmt", pixelFormat, "-f", "hevc", "-y", path])
        return try stream(name: name, path: path, chroma: chroma, depth: depth)
    }

    /// Splits the Annex B stream at `path` into a tile and decodes it with ffmpeg.
    package static func stream(name: String, path: String, chroma: UInt8, depth: UInt8) throws -> Stream {
        let nals = nalUnits(annexB: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let parameterSets = nals.filter { (32...34).contains(Int($0[0] >> 1 & 0x3F)) }
        let data = nals.filter { !(32...34).contains(Int($0[0] >> 1 & 0x3F)) }.flatMap { lengthPrefixed($0) }
        let configuration = try HEVCConfiguration.parse(HvcCBuilder.payload(chroma: chroma, depth: depth, parameterSets: parameterSets))
        // No -pix_fmt: the decoder's own output format, so swscale never touches the samples
        // (asking for yuv420p would squeeze a full-range picture into limited range).
        let reference = try run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-"])
        return Stream(name: name, configuration: configuration, data: data, reference: reference)
    }

    /// The PSNR of `decoded` against `reference`, over all their bytes (equal counts).
    package static func psnr(_ decoded: [UInt8], _ reference: [UInt8]) -> Double {
        guard decoded.count == reference.count, !decoded.isEmpty else { return 0 }
        var squares = 0.0
        for index in decoded.indices {
            let difference = Double(decoded[index]) - Double(reference[index])
            squares += difference * difference
        }
        guard squares > 0 else { return .infinity }
        return 10 * log10(255 * 255 * Double(decoded.count) / squares)
    }

    package static func lengthPrefixed(_ nal: [UInt8]) -> [UInt8] {
        BoxBuilder.u32(nal.count) + nal
    }

    /// NAL units of an Annex B byte stream (start codes 00 00 01, optionally after a zero byte).
    package static func nalUnits(annexB bytes: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        var i = 0
        while i + 3 <= bytes.count {
            if bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1 {
                starts.append(i + 3)
                i += 3
            } else {
                i += 1
            }
        }
        return starts.indices.map { k in
            var end = k + 1 < starts.count ? starts[k + 1] - 3 : bytes.count
            while end > starts[k] && bytes[end - 1] == 0 { end -= 1 } // zero_byte / trailing zeros
            return Array(bytes[starts[k]..<end])
        }
    }

    /// "identical", or where `decoded` first differs from `reference` (arrays of
    /// thousands of bytes are too long for a test failure message).
    package static func compare(_ decoded: [UInt8], _ reference: [UInt8]) -> String {
        guard decoded.count == reference.count else { return "\(decoded.count) bytes decoded, \(reference.count) in the reference" }
        guard let first = decoded.indices.first(where: { decoded[$0] != reference[$0] }) else { return "identical" }
        let count = decoded.indices.filter { decoded[$0] != reference[$0] }.count
        return "\(count) bytes differ, the first at byte \(first): \(decoded[first]) instead of \(reference[first])"
    }

    /// The picture's planes copied row by row without padding, like ffmpeg's rawvideo.
    package static func packedPlanes(_ picture: DecodedPicture) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, plane) in picture.planes.enumerated() {
            let size = picture.size(ofPlane: index)
            let rowBytes = size.width * (((index == 0 ? picture.bitDepth : picture.bitDepthChroma) + 7) / 8)
            for row in 0..<size.height {
                bytes += UnsafeBufferPointer(start: plane.pointer + row * plane.stride, count: rowBytes)
            }
        }
        return bytes
    }
}
