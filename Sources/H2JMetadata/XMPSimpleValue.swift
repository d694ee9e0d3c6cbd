import H2JSupport

/// Reads one simple XMP property's value from a packet (attribute or element form, by
/// its prefixed name, as `XMPPropertyScanner` finds it), for readers that need a value
/// or two without an XML parser: Apple's gain-map headroom, Adobe's `hdrgm:` fields.
package enum XMPSimpleValue {
    /// The first value of `name` (`hdrgm:HDRCapacityMax`), white space trimmed; nil when absent.
    package static func text(_ name: String, in packet: [UInt8]) -> String? {
        guard let property = XMPPropertyScanner(packet).properties(named: name).first else { return nil }
        return String(decoding: packet[property.value], as: UTF8.self).trimmingWhitespace
    }

    /// The first value of `name` as a number; nil when absent or not a number.
    package static func number(_ name: String, in packet: [UInt8]) -> Double? {
        text(name, in: packet).flatMap(Double.init)
    }
}
