/// Bytes held in memory (`head`) followed by the bytes of another source (`tail`), read
/// in place: how a file is shown to a reader with a synthesized header in front of it
/// (a `mini` file as an ordinary HEIF), without copying the file.
///
/// Invariant: `size` is `head.count + tail.size`, or `Int.max` when that does not fit
/// (the tail's last bytes are then out of reach, never a trap); a read is served from
/// the head, the tail, or both, and a range outside `0..<size` is `outOfRange`, as for
/// every source.
package struct SplicedByteSource: ByteSource {
    package let head: [UInt8]
    package let tail: ByteSource
    package let size: Int

    package init(head: [UInt8], tail: ByteSource) {
        self.head = head
        self.tail = tail
        let (size, overflow) = head.count.addingReportingOverflow(tail.size)
        self.size = overflow ? Int.max : size
    }

    package func read(at offset: Int, count: Int) throws(ReadError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw .outOfRange(offset: offset, count: count, size: size)
        }
        if offset >= head.count { return try tail.read(at: offset - head.count, count: count) }
        let fromHead = min(count, head.count - offset)
        let first = Array(head[offset..<(offset + fromHead)])
        return fromHead == count ? first : first + (try tail.read(at: 0, count: count - fromHead))
    }
}
