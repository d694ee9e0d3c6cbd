import H2JSupport

/// An ISO-BMFF box header (ISO/IEC 14496-12 §4.2): 32-bit size and type, an optional
/// 64-bit `largesize`, and size 0 meaning "to the end of the enclosing range".
struct BoxHeader: Equatable, Sendable {
    let type: String
    /// Offset of the first byte of the box (its size field).
    let start: Int
    /// Offset of the payload (after size, type and any largesize).
    let payloadStart: Int
    /// Offset one past the last byte of the box.
    let end: Int

    var payloadLength: Int { end - payloadStart }

    /// Reads the header at `offset` in `reader`, whose box must end by `limit`.
    /// Returns nil when fewer than 8 bytes remain; throws when the box overruns `limit`.
    static func read(_ reader: ByteReader, at offset: Int, limit: Int) throws(HEIFError) -> BoxHeader? {
        guard offset <= limit - 8, let size32 = reader.u32(offset), let type = reader.fourCC(offset + 4) else {
            return nil
        }
        var payload = offset + 8
        var size = Int(size32)
        if size32 == 1 {
            guard let large = reader.u64(offset + 8), large <= UInt64(Int.max) else { throw .truncatedBox(type) }
            size = Int(large)
            payload += 8
        } else if size32 == 0 {
            size = limit - offset
        }
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, size >= payload - offset, end <= limit else { throw .truncatedBox(type) }
        return BoxHeader(type: type, start: offset, payloadStart: payload, end: end)
    }

    /// All sibling boxes in `range` of `reader`.
    static func children(_ reader: ByteReader, from start: Int, to end: Int) throws(HEIFError) -> [BoxHeader] {
        var boxes: [BoxHeader] = []
        var offset = start
        while let box = try read(reader, at: offset, limit: end) {
            boxes.append(box)
            guard boxes.count <= HEIFLimits.maxChildBoxes else { throw .limitExceeded("more than \(HEIFLimits.maxChildBoxes) boxes in one container") }
            offset = box.end
        }
        return boxes
    }
}

/// Bounds that keep hostile files from costing memory or time. They are far above
/// what any camera writes: a 200 MP phone photo has about 800 tiles, so 800 items
/// and references (one `iloc` extent each); the largest real `meta` boxes are a few hundred KB.
package enum HEIFLimits {
    package static let maxMetaBytes = 32 << 20
    package static let maxChildBoxes = 100_000
    package static let maxItems = 65_536
    /// Total `iloc` extents over all items. An extent can cost 0 bytes of `iloc` (offset and
    /// length sizes 0), so the box size alone does not bound them.
    package static let maxExtents = 1 << 20
}
