/// The byte encoding of worker messages: little-endian integers, length-prefixed byte
/// strings, a presence byte before optionals. Both ends are the same binary, so there
/// is no versioning; the reader is still strict, since a worker running a hostile file
/// may be compromised and its messages are untrusted bytes.
package struct WireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func u8(_ value: UInt8) { bytes.append(value) }

    package mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

    package mutating func int(_ value: Int) {
        let bits = UInt64(bitPattern: Int64(value))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    package mutating func data(_ value: [UInt8]) {
        int(value.count)
        bytes.append(contentsOf: value)
    }

    package mutating func string(_ value: String) { data(Array(value.utf8)) }

    package mutating func optional<T>(_ value: T?, _ write: (inout WireWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}

/// A message that does not decode: cut short, an unknown tag, or a length past the end.
package struct WireError: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "malformed worker message: \(reason)" }

    package init(reason: String) {
        self.reason = reason
    }
}

/// Reads what `WireWriter` wrote. Invariant: never traps; every read past the end, or
/// of a value out of range, throws `WireError`.
package struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func u8() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw WireError(reason: "ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func bool() throws(WireError) -> Bool {
        switch try u8() {
        case 0: false
        case 1: true
        case let other: throw WireError(reason: "\(other) is not a Boolean")
        }
    }

    package mutating func int() throws(WireError) -> Int {
        guard bytes.count - offset >= 8 else { throw WireError(reason: "ends early") }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
        offset += 8
        return Int(Int64(bitPattern: bits))
    }

    package mutating func data() throws(WireError) -> [UInt8] {
        let count = try int()
        guard count >= 0, count <= bytes.count - offset else { throw WireError(reason: "a length of \(count) runs past the end") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    package mutating func string() throws(WireError) -> String {
        String(decoding: try data(), as: UTF8.self)
    }

    /// A `RawRepresentable` value by its raw string.
    package mutating func value<T: RawRepresentable>(_ type: T.Type) throws(WireError) -> T where T.RawValue == String {
        let raw = try string()
        guard let value = T(rawValue: raw) else { throw WireError(reason: "unknown \(T.self) '\(raw)'") }
        return value
    }

    package mutating func optional<T>(_ read: (inout WireReader) throws(WireError) -> T) throws(WireError) -> T? {
        try bool() ? try read(&self) : nil
    }
}
