/// The first 100 bytes of an SQLite database file, checked on every opening instead of
/// reading every page: the magic string, a page size SQLite can write, a file of whole
/// pages, and no fewer pages than the header counts (a file cut short). The sizes are not
/// checked while a `-wal` file holds pages not yet copied in (a checkpoint cut short
/// may leave the file shorter than its new header says, and SQLite recovers it from the
/// WAL). The format is SQLite's (sqlite.org/fileformat.html, "The Database Header").
enum SQLiteHeader {
    static let length = 100

    /// What is wrong with `header` (the file's first bytes, fewer if it is shorter) for a
    /// file of `fileSize` bytes (nil: not checked); nil when it is sound.
    static func problem(_ header: [UInt8], fileSize: Int?) -> String? {
        guard header.count == length, header.starts(with: Array("SQLite format 3".utf8) + [0]) else {
            return "it is not an SQLite database (its header is not SQLite's)"
        }
        let declared = Int(header[16]) << 8 | Int(header[17])
        let pageSize = declared == 1 ? 65_536 : declared
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return "its header declares a page size of \(declared)" }
        guard let fileSize else { return nil }
        guard fileSize % pageSize == 0 else { return "it is \(fileSize) bytes, not a whole number of \(pageSize)-byte pages" }
        // The page count is valid when the change counter matches its "version-valid-for".
        let counter = bigEndian(header, at: 24), pages = bigEndian(header, at: 28)
        if pages > 0, counter == bigEndian(header, at: 92), fileSize < pages * pageSize {
            return "it is \(fileSize) bytes, cut short of the \(pages) pages its header counts"
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}
