#if canImport(Glibc)
import Glibc
#endif
import H2JJPEG
import H2JSupport

/// Streams several JPEGs into one CIPA DC-007 Multi-Picture file: the first, whose
/// header carries the MP Index IFD with zero sizes and offsets, then each other right
/// after the previous one's EOI; then the index is rewritten in place (`pwrite`, same
/// length) with the real sizes and offsets. A stereo MPO is two views of MP type
/// "disparity", each after the first opening with its MP Attribute IFD; an Ultra HDR
/// JPEG is the SDR image (baseline MP primary) and its gain map (no MP type). The first
/// image is the representative one, which a viewer that knows nothing of MPF shows.
enum MultiPictureOutput {
    /// Writes the images of `types` to `fd`: `first(segment)` writes the first image at
    /// the descriptor's offset 0 with `segment` (the placeholder index) among its header
    /// segments, and `others[k]` image k + 2 at the current offset.
    static func write(to fd: Int32, path: String, types: [MultiPictureFormat.ImageType], first: ([UInt8]) throws -> Void,
                      others: [() throws -> Void]) throws {
        guard types.count == others.count + 1,
              let placeholder = MultiPictureFormat.indexSegment(types.map { MultiPictureFormat.Image(type: $0) }) else {
            throw WriteError(path: path, reason: "cannot lay out a Multi-Picture index")
        }
        try first(placeholder)
        var starts = [0]
        for write in others {
            starts.append(Int(lseek(fd, 0, SEEK_CUR)))
            try write()
        }
        let end = Int(lseek(fd, 0, SEEK_CUR))
        guard starts.dropFirst().allSatisfy({ $0 > 0 }), end > starts.last! else { throw WriteError.system(path, "lseek") }
        let header = try JPEGSegments.readingHeader(of: FileByteSource(fd: fd, size: starts[1]), firstRead: 1 << 16)
        guard let header, let (at, index) = MultiPictureFormat.finalIndex(header: header, types: types, starts: starts, end: end) else {
            throw WriteError(path: path, reason: "the Multi-Picture index written in the first image was not found again")
        }
        let written = index.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(at)) }
        guard written == index.count else { throw WriteError.system(path, "cannot rewrite the Multi-Picture index") }
    }
}
