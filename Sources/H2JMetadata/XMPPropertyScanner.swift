/// Finds simple XMP properties in a packet's bytes, for edits that leave everything
/// else byte for byte (the packet need not be UTF-8; any ASCII-compatible encoding
/// works).
///
/// A property is found in attribute form (`name="v"`, `name = 'v'`) or element form
/// (`<name>v</name>`, `<name …>…</name>`, `<name/>`), where the name is preceded by `<`
/// or white space and followed by what may end an XML name. End tags are indexed once
/// per packet, so finding every element's end costs O(n log n), whatever the input.
///
/// Invariant: never traps; returned ranges lie inside the packet, in order, and do not
/// overlap.
struct XMPPropertyScanner {
    /// One property occurrence.
    struct Property: Equatable {
        /// From the name (attribute) or the `<` (element) to one past the closing quote or end tag.
        let span: Range<Int>
        /// The value between the quotes, or the element's content (empty for `<name/>`).
        let value: Range<Int>
        let isAttribute: Bool
    }

    let packet: [UInt8]
    /// Offsets of `</` for each end-tag name, ascending.
    private let endTags: [[UInt8]: [Int]]

    init(_ packet: [UInt8]) {
        self.packet = packet
        var endTags: [[UInt8]: [Int]] = [:]
        var i = 0
        while i + 1 < packet.count {
            if packet[i] == UInt8(ascii: "<"), packet[i + 1] == UInt8(ascii: "/") {
                var end = i + 2
                while end < packet.count, !Self.endsName(packet[end]) { end += 1 }
                endTags[Array(packet[(i + 2)..<end]), default: []].append(i)
                i = end
            } else {
                i += 1
            }
        }
        self.endTags = endTags
    }

    /// Every property named `name`, or whose name starts with it when `prefix` is true.
    func properties(named name: String, prefix: Bool = false) -> [Property] {
        let key = Array(name.utf8)
        guard let first = key.first else { return [] }
        var found: [Property] = []
        var i = 0
        while let candidate = packet[i...].firstIndex(of: first) {
            guard let property = property(at: candidate, key: key, prefix: prefix) else {
                i = candidate + 1
                continue
            }
            found.append(property)
            i = property.span.upperBound
        }
        return found
    }

    private func property(at i: Int, key: [UInt8], prefix: Bool) -> Property? {
        guard i > 0, i + key.count <= packet.count, packet[i..<(i + key.count)].elementsEqual(key) else { return nil }
        let previous = packet[i - 1]
        guard previous == UInt8(ascii: "<") || Self.isSpace(previous) else { return nil }
        var nameEnd = i + key.count
        if prefix {
            while nameEnd < packet.count, !Self.endsName(packet[nameEnd]) { nameEnd += 1 }
        } else if nameEnd < packet.count, !Self.endsName(packet[nameEnd]) {
            return nil
        }
        if previous == UInt8(ascii: "<") {
            guard let tagEnd = packet[nameEnd...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            if packet[tagEnd - 1] == UInt8(ascii: "/") {
                return Property(span: (i - 1)..<(tagEnd + 1), value: tagEnd..<tagEnd, isAttribute: false)
            }
            let name = Array(packet[i..<nameEnd])
            guard let close = endTags[name]?.first(after: tagEnd),
                  let closeEnd = packet[(close + 2 + name.count)...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return Property(span: (i - 1)..<(closeEnd + 1), value: (tagEnd + 1)..<close, isAttribute: false)
        }
        var j = nameEnd
        while j < packet.count, Self.isSpace(packet[j]) { j += 1 }
        guard j < packet.count, packet[j] == UInt8(ascii: "=") else { return nil }
        j += 1
        while j < packet.count, Self.isSpace(packet[j]) { j += 1 }
        guard j < packet.count, packet[j] == UInt8(ascii: "\"") || packet[j] == UInt8(ascii: "'"),
              let close = packet[(j + 1)...].firstIndex(of: packet[j]) else { return nil }
        return Property(span: i..<(close + 1), value: (j + 1)..<close, isAttribute: true)
    }

    /// XML white space.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Bytes that end an XML name here: white space, `=`, `>`, `/`.
    static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }
}

private extension Array where Element == Int {
    /// The first element greater than `value` in this ascending array (binary search).
    func first(after value: Int) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] > value { high = mid } else { low = mid + 1 }
        }
        return low < count ? self[low] : nil
    }
}
