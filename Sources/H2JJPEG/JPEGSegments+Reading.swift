import H2JSupport

extension JPEGSegments {
    /// The header segments of the JPEG that starts `source`, read from a prefix that
    /// grows (from `firstRead`, four times at each step) until it holds them all: a
    /// header rarely passes the first MiB, and the scan data after it is never read. nil
    /// when even the whole source holds no well-formed header.
    package static func readingHeader(of source: ByteSource, firstRead: Int = 1 << 20) throws(ReadError) -> JPEGSegments? {
        var length = min(max(firstRead, 1), source.size)
        while true {
            if let header = JPEGSegments(try source.read(at: 0, count: length)) { return header }
            guard length < source.size else { return nil }
            length = min(source.size, length * 4)  // length < size, so no overflow
        }
    }
}
