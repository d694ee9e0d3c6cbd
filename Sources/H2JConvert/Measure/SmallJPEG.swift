#if canImport(Glibc)
import Glibc
#endif
import CMemoryFile
import H2JJPEG
import H2JJPEGCodec
import H2JJob

/// A small picture encoded as a JPEG in memory, in the worker (whose sandbox allows only
/// an anonymous in-memory file: `h2j_memory_file`), with `profile` so a browser shows its
/// colours as the picture's own profile says.
enum SmallJPEG {
    static func encode(_ picture: PicturePixels, quality: Int, subsampling: ChromaSubsampling, profile: [UInt8]?) throws -> [UInt8] {
        let fd = h2j_memory_file()
        guard fd >= 0 else { throw CompareError("cannot create an in-memory file for a picture") }
        defer { close(fd) }
        let writer = try JPEGWriter(fd: fd)
        try writer.start(width: picture.width, height: picture.height, components: picture.components, quality: quality,
                         subsampling: picture.components == 1 ? .s444 : subsampling)
        if let profile { try writer.writeICC(profile) }
        try picture.bytes.withUnsafeBufferPointer {
            try writer.writeRows($0.baseAddress!, stride: picture.width * picture.components, count: picture.height)
        }
        try writer.finish()
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0, size <= ComparisonPictures.maxPictureBytes else { throw CompareError("a picture of \(size) bytes") }
        var bytes = [UInt8](repeating: 0, count: size)
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
        guard read == size else { throw CompareError("reading a picture back from memory") }
        return bytes
    }
}
