import Foundation
import H2JJPEG
import H2JJPEGCodec
import Testing

/// Small JPEGs for tests: hand-made segments, and real files from `JPEGWriter`.
package enum JPEGTestSupport {
    /// One marker segment: the marker, its length, then `body`.
    package static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker] + BoxBuilder.u16(body.count + 2) + body
    }

    /// Runs `body` on a writer whose output goes to a temporary file; returns the bytes.
    package static func encode(_ body: (JPEGWriter) throws -> Void) throws -> [UInt8] {
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

    /// A small JPEG from `JPEGWriter` with the given APPn segments and ICC profile.
    package static func encode(width: Int, height: Int, components: Int = 3, subsampling: ChromaSubsampling = .s420,
                               markers: [(Int, [UInt8])] = [], icc: [UInt8]? = nil) throws -> [UInt8] {
        let pixels = (0..<(width * height * components)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        return try encode { writer in
            try writer.start(width: width, height: height, components: components, quality: 80, subsampling: subsampling)
            for (marker, payload) in markers { try writer.writeMarker(marker, payload) }
            if let icc { try writer.writeICC(icc) }
            try pixels.withUnsafeBufferPointer { try writer.writeRows($0.baseAddress!, stride: width * components, count: height) }
            try writer.finish()
        }
    }
}
