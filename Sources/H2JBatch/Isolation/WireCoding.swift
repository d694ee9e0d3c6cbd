import H2JConvert

/// The byte encoding of worker messages: little-endian integers, length-prefixed byte
/// strings, a presence byte before optionals. Both ends are the same binary, so there
/// is no versioning; the reader is still strict, since a worker running a hostile file
/// may be compromised and its messages are untrusted bytes.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func bool(_ value: Bool) { u8(value ? 1 : 0) }

    mutating func int(_ value: Int) {
        let bits = UInt64(bitPattern: Int64(value))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    mutating func data(_ value: [UInt8]) {
        int(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { data(Array(value.utf8)) }

    mutating func optional<T>(_ value: T?, _ write: (inout WireWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}

/// A message that does not decode: cut short, an unknown tag, or a length past the end.
struct WireError: Error, CustomStringConvertible {
    let reason: String
    var description: String { "malformed worker message: \(reason)" }
}

/// Reads what `WireWriter` wrote. Invariant: never traps; every read past the end, or
/// of a value out of range, throws `WireError`.
struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw WireError(reason: "ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool() throws(WireError) -> Bool {
        switch try u8() {
        case 0: false
        case 1: true
        case let other: throw WireError(reason: "\(other) is not a Boolean")
        }
    }

    mutating func int() throws(WireError) -> Int {
        guard bytes.count - offset >= 8 else { throw WireError(reason: "ends early") }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
        offset += 8
        return Int(Int64(bitPattern: bits))
    }

    mutating func data() throws(WireError) -> [UInt8] {
        let count = try int()
        guard count >= 0, count <= bytes.count - offset else { throw WireError(reason: "a length of \(count) runs past the end") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func string() throws(WireError) -> String {
        String(decoding: try data(), as: UTF8.self)
    }

    /// A `RawRepresentable` value by its raw string.
    mutating func value<T: RawRepresentable>(_ type: T.Type) throws(WireError) -> T where T.RawValue == String {
        let raw = try string()
        guard let value = T(rawValue: raw) else { throw WireError(reason: "unknown \(T.self) '\(raw)'") }
        return value
    }

    mutating func optional<T>(_ read: (inout WireReader) throws(WireError) -> T) throws(WireError) -> T? {
        try bool() ? try read(&self) : nil
    }
}
