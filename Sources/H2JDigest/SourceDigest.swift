import H2JSupport

/// SHA-256 of a whole file, in 1 MiB reads: a source (the provenance mark, `inspect
/// --source`, `--recheck`) or an output about to be published.
package enum SourceDigest {
    /// Bytes read per call when hashing a file.
    static let chunkBytes = 1 << 20

    /// Lowercase hex SHA-256 of the file at `path`, read in 1 MiB chunks (memory stays
    /// flat whatever the size).
    package static func hex(ofFileAt path: String) throws(SourceError) -> String {
        let file = try SourceFile(path: path)
        return try hex(of: file.byteSource)
    }

    /// Lowercase hex SHA-256 of all of `source`.
    package static func hex(of source: ByteSource) throws(SourceError) -> String {
        let size = source.size
        var hash = SHA256()
        var offset = 0
        while offset < size {
            let count = min(chunkBytes, size - offset)
            let chunk: [UInt8]
            do {
                chunk = try source.read(at: offset, count: count)
            } catch {
                throw SourceError(reason: "cannot read for its SHA-256: \(error)")
            }
            hash.update(chunk)
            offset += count
        }
        return SHA256.hex(hash.finalize())
    }

    /// Lowercase hex SHA-256 of bytes already in memory (stdin).
    package static func hex(of bytes: [UInt8]) -> String {
        SHA256.hex(SHA256.digest(bytes))
    }
}
