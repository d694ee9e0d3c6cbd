/// Prepares an XMP packet for a JPEG APP1 segment (XMP Specification Part 3, §1.1.3).
///
/// The packet is passed through byte for byte (it need not be UTF-8), except that
/// `tiff:Orientation` becomes 1 and `exif:PixelXDimension`/`exif:PixelYDimension` take
/// the output size, where present: the pixels are already upright, and a stale XMP
/// orientation makes some viewers rotate twice.
public enum XMPForJPEG {
    /// The APP1 namespace header, NUL included.
    public static let header = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// Largest packet that fits one APP1 with the header (65,533 − 29 − 2 reserved by the spec).
    public static let maxPacketBytes = 65_502

    /// The APP1 payload, or nil with a warning when the packet cannot be written.
    /// `stripGPS` removes every `exif:GPS…` property first.
    public static func make(packet: [UInt8], width: Int, height: Int, stripGPS: Bool = false) -> (payload: [UInt8]?, warnings: [String]) {
        var packet = packet
        while packet.last == 0 { packet.removeLast() }  // some writers add a NUL terminator
        guard !packet.isEmpty else { return (nil, []) }
        if stripGPS { packet = removingProperties(prefixed: "exif:GPS", from: packet) }
        packet = replacingValue(of: "tiff:Orientation", with: "1", in: packet)
        packet = replacingValue(of: "exif:PixelXDimension", with: String(width), in: packet)
        packet = replacingValue(of: "exif:PixelYDimension", with: String(height), in: packet)
        guard packet.count <= maxPacketBytes else {
            return (nil, ["XMP is \(packet.count) bytes, over the \(maxPacketBytes) one APP1 holds; dropped it"])
        }
        return (header + packet, [])
    }

    /// Replaces the value of the simple property `name`, written either as an attribute
    /// (`name="v"` or `name='v'`) or as an element (`<name>v</name>`). Works on bytes, so
    /// any ASCII-compatible encoding passes through untouched elsewhere.
    static func replacingValue(of name: String, with value: String, in packet: [UInt8]) -> [UInt8] {
        let key = Array(name.utf8)
        let replacement = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var i = 0
        while i < packet.count {
            let previous: UInt8 = i > 0 ? packet[i - 1] : 0
            guard matches(key, in: packet, at: i), previous == UInt8(ascii: "<") || isSpace(previous) else {
                out.append(packet[i])
                i += 1
                continue
            }
            let afterName = i + key.count
            out.append(contentsOf: key)
            i = afterName
            if previous == UInt8(ascii: "<") {
                // Element form: <name>value</name>, value without markup.
                if afterName < packet.count, packet[afterName] == UInt8(ascii: ">"),
                   let close = packet[(afterName + 1)...].firstIndex(of: UInt8(ascii: "<")) {
                    out.append(UInt8(ascii: ">"))
                    out.append(contentsOf: replacement)
                    i = close
                }
                continue
            }
            // Attribute form: name, optional spaces, '=', optional spaces, quoted value.
            var j = afterName
            while j < packet.count, isSpace(packet[j]) { j += 1 }
            guard j < packet.count, packet[j] == UInt8(ascii: "=") else { continue }
            j += 1
            while j < packet.count, isSpace(packet[j]) { j += 1 }
            if j < packet.count, packet[j] == UInt8(ascii: "\"") || packet[j] == UInt8(ascii: "'"),
               let close = packet[(j + 1)...].firstIndex(of: packet[j]) {
                out.append(contentsOf: packet[afterName...j])
                out.append(contentsOf: replacement)
                i = close
            }
        }
        return out
    }

    /// Removes every property whose name starts with `prefix`, in attribute form (with
    /// the white space before it) or element form (through its matching end tag, so a
    /// structured value goes too). Works on bytes, like `replacingValue`.
    static func removingProperties(prefixed prefix: String, from packet: [UInt8]) -> [UInt8] {
        let key = Array(prefix.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var i = 0
        while i < packet.count {
            let previous: UInt8 = i > 0 ? packet[i - 1] : 0
            guard matches(key, in: packet, at: i), previous == UInt8(ascii: "<") || isSpace(previous) else {
                out.append(packet[i])
                i += 1
                continue
            }
            var nameEnd = i + key.count
            while nameEnd < packet.count, !isSpace(packet[nameEnd]), ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(packet[nameEnd]) {
                nameEnd += 1
            }
            let name = Array(packet[i..<nameEnd])
            if previous == UInt8(ascii: "<") {
                // Element: drop "<name …>…</name>" (or "<name …/>").
                guard let tagEnd = packet[nameEnd...].firstIndex(of: UInt8(ascii: ">")) else { out.append(packet[i]); i += 1; continue }
                var after = tagEnd + 1
                if packet[tagEnd - 1] != UInt8(ascii: "/") {
                    let close = [UInt8(ascii: "<"), UInt8(ascii: "/")] + name + [UInt8(ascii: ">")]
                    guard let found = (after...max(after, packet.count - close.count)).first(where: { matches(close, in: packet, at: $0) })
                    else { out.append(packet[i]); i += 1; continue }
                    after = found + close.count
                }
                out.removeLast()  // the "<" already copied
                i = after
                continue
            }
            // Attribute: drop the white space before it and name="value".
            var j = nameEnd
            while j < packet.count, isSpace(packet[j]) { j += 1 }
            guard j < packet.count, packet[j] == UInt8(ascii: "=") else { out.append(packet[i]); i += 1; continue }
            j += 1
            while j < packet.count, isSpace(packet[j]) { j += 1 }
            guard j < packet.count, packet[j] == UInt8(ascii: "\"") || packet[j] == UInt8(ascii: "'"),
                  let close = packet[(j + 1)...].firstIndex(of: packet[j]) else { out.append(packet[i]); i += 1; continue }
            while let last = out.last, isSpace(last) { out.removeLast() }
            i = close + 1
        }
        return out
    }

    private static func matches(_ key: [UInt8], in bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + key.count <= bytes.count else { return false }
        for k in 0..<key.count where bytes[offset + k] != key[k] { return false }
        return true
    }

    /// XML white space: what may precede an attribute name.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
