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

    /// Replaces the value of the simple property `name` (attribute or element form; an
    /// element whose content holds markup is a structure, and is left alone).
    static func replacingValue(of name: String, with value: String, in packet: [UInt8]) -> [UInt8] {
        let scanner = XMPPropertyScanner(packet)
        let replacement = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var copied = 0
        for property in scanner.properties(named: name) where !packet[property.value].contains(UInt8(ascii: "<")) {
            if !property.isAttribute && property.value.isEmpty { continue }  // <name/>: nothing to replace
            out += packet[copied..<property.value.lowerBound]
            out += replacement
            copied = property.value.upperBound
        }
        return out + packet[copied...]
    }

    /// Removes every property whose name starts with `prefix`: an attribute with the
    /// white space before it, an element through its end tag (a structured value too).
    static func removingProperties(prefixed prefix: String, from packet: [UInt8]) -> [UInt8] {
        let scanner = XMPPropertyScanner(packet)
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var copied = 0
        for property in scanner.properties(named: prefix, prefix: true) {
            out += packet[copied..<property.span.lowerBound]
            if property.isAttribute {
                while let last = out.last, XMPPropertyScanner.isSpace(last) { out.removeLast() }
            }
            copied = property.span.upperBound
        }
        return out + packet[copied...]
    }
}
