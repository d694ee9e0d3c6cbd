#if canImport(Glibc)
import Glibc
#endif
import H2JJPEG
import H2JSupport

/// Streams a stereo pair into one CIPA DC-007 Multi-Picture file (an MPO): the left
/// view, whose header carries the MP Index IFD with zero sizes and offsets, then the
/// right view right after its EOI, opening with its MP Attribute IFD; then the index is
/// rewritten in place (`pwrite`, same length) with the real sizes and offsets. Both
/// views are MP type "disparity"; the first is the representative image, which a
/// viewer that knows nothing of MPF shows.
enum MultiPictureOutput {
    static let types: [MultiPictureFormat.ImageType] = [.disparity, .disparity]

    /// `encode(index, segment)` writes view `index` (0 left, 1 right) at the descriptor's
    /// current offset, with `segment` among its header segments.
    static func writeStereo(to fd: Int32, path: String, _ encode: (Int, [UInt8]) throws -> Void) throws {
        guard let placeholder = MultiPictureFormat.indexSegment(types.map { MultiPictureFormat.Image(type: $0) }) else {
            throw WriteError(path: path, reason: "cannot lay out a Multi-Picture index")
        }
        try encode(0, placeholder)
        let second = Int(lseek(fd, 0, SEEK_CUR))
        try encode(1, MultiPictureFormat.attributeSegment(number: 2, type: types[1]))
        let end = Int(lseek(fd, 0, SEEK_CUR))
        guard second > 0, end > second else { throw WriteError.system(path, "lseek") }
        let header = try readHeader(fd, upTo: second, path: path)
        guard let (at, index) = MultiPictureFormat.finalIndex(header: header, types: types, starts: [0, second], end: end) else {
            throw WriteError(path: path, reason: "the Multi-Picture index written in the first view was not found again")
        }
        let written = index.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(at)) }
        guard written == index.count else { throw WriteError.system(path, "cannot rewrite the Multi-Picture index") }
    }

    /// The first view's bytes up to its scan: read in growing prefixes (its header is a
    /// few KB, and at most the metadata segments' size).
    private static func readHeader(_ fd: Int32, upTo limit: Int, path: String) throws -> [UInt8] {
        var count = min(limit, 1 << 16)
        while true {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
            guard read == count else { throw WriteError.system(path, "cannot read back the first view") }
            if JPEGSegments(bytes) != nil || count == limit { return bytes }
            count = min(limit, count * 8)
        }
    }
}
