/// A typed TIFF field value to write into an IFD entry: field type, count and the value's
/// bytes, already in the blob's byte order.
///
/// Invariant: `bytes.count == count × TIFFFieldType.size(of: type)`, so an entry built
/// from it says exactly how many bytes its value has.
struct TIFFValue: Sendable, Equatable {
    let type: UInt16
    let count: UInt32
    let bytes: [UInt8]

    /// Any value of a known field type; nil when `bytes` is not `count` elements of `type`.
    init?(type: UInt16, count: UInt32, bytes: [UInt8]) {
        guard let size = TIFFFieldType.size(of: type) else { return nil }
        let (length, overflow) = Int(count).multipliedReportingOverflow(by: size)
        guard !overflow, length == bytes.count else { return nil }
        self.type = type
        self.count = count
        self.bytes = bytes
    }

    /// ASCII text with its terminating NUL (count = UTF-8 length + 1), as EXIF requires.
    /// nil when the text is longer than a count can say.
    static func ascii(_ text: String) -> TIFFValue? {
        let bytes = Array(text.utf8) + [0]
        guard let count = UInt32(exactly: bytes.count) else { return nil }
        return TIFFValue(type: TIFFFieldType.ascii, count: count, bytes: bytes)
    }

    /// LONG values in the given byte order.
    static func long(_ values: [UInt32], bigEndian: Bool) -> TIFFValue? {
        var bytes = [UInt8](repeating: 0, count: 4 * values.count)
        for (i, value) in values.enumerated() {
            TIFFPatching.put32(value, at: 4 * i, in: &bytes, bigEndian: bigEndian)
        }
        guard let count = UInt32(exactly: values.count) else { return nil }
        return TIFFValue(type: TIFFFieldType.long, count: count, bytes: bytes)
    }

    /// SHORT values in the given byte order.
    static func short(_ values: [UInt16], bigEndian: Bool) -> TIFFValue? {
        var bytes = [UInt8](repeating: 0, count: 2 * values.count)
        for (i, value) in values.enumerated() {
            TIFFPatching.put16(value, at: 2 * i, in: &bytes, bigEndian: bigEndian)
        }
        guard let count = UInt32(exactly: values.count) else { return nil }
        return TIFFValue(type: TIFFFieldType.short, count: count, bytes: bytes)
    }

    /// One RATIONAL numerator/denominator in the given byte order.
    static func rational(_ numerator: UInt32, _ denominator: UInt32, bigEndian: Bool) -> TIFFValue? {
        var bytes = [UInt8](repeating: 0, count: 8)
        TIFFPatching.put32(numerator, at: 0, in: &bytes, bigEndian: bigEndian)
        TIFFPatching.put32(denominator, at: 4, in: &bytes, bigEndian: bigEndian)
        return TIFFValue(type: TIFFFieldType.rational, count: 1, bytes: bytes)
    }

    /// Raw bytes of `type` BYTE or UNDEFINED (no byte order).
    static func bytes(_ bytes: [UInt8], type: UInt16) -> TIFFValue? {
        guard let count = UInt32(exactly: bytes.count) else { return nil }
        return TIFFValue(type: type, count: count, bytes: bytes)
    }

    /// True when the value fits the entry's own 4-byte field.
    var isInline: Bool { bytes.count <= 4 }
}
