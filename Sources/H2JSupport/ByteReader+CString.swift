extension ByteReader {
    /// The UTF-8 string that starts at `start` and ends at the first NUL before `end`, and
    /// the offset just past that NUL. A string with no terminator runs to `end` (files
    /// written by some tools omit it); a `start` at or past `end` gives an empty string.
    /// Invalid UTF-8 is repaired, never trapped on.
    package func nullTerminatedString(from start: Int, to end: Int) -> (string: String, next: Int) {
        let stop = Swift.min(end, count)
        guard start >= 0, start < stop else { return ("", Swift.max(start, stop)) }
        let terminator = bytes[start..<stop].firstIndex(of: 0)
        let text = String(decoding: bytes[start..<(terminator ?? stop)], as: UTF8.self)
        return (text, terminator.map { $0 + 1 } ?? stop)
    }
}
