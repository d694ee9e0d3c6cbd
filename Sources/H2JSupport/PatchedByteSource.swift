/// Another source's bytes with a few of them replaced in place: how a file is shown to
/// libheif with one field changed (a `pitm` naming a `tmap` item, which libheif 1.15
/// refuses), without copying the file.
///
/// Invariant: `size` and every read's range are the base source's; only bytes inside
/// `offset ..< offset + replacement.count` differ.
package struct PatchedByteSource: ByteSource {
    package let base: ByteSource
    package let offset: Int
    package let replacement: [UInt8]

    package init(_ base: ByteSource, replacing offset: Int, with replacement: [UInt8]) {
        self.base = base
        self.offset = offset
        self.replacement = replacement
    }

    package var size: Int { base.size }

    package func read(at position: Int, count: Int) throws(ReadError) -> [UInt8] {
        var bytes = try base.read(at: position, count: count)
        for (index, byte) in replacement.enumerated() {
            let (at, overflow) = offset.addingReportingOverflow(index)
            guard !overflow, at >= position, at - position < bytes.count else { continue }
            bytes[at - position] = byte
        }
        return bytes
    }
}
