/// A minimal JSON object writer with fixed key order, for JSON Lines reports.
/// Keys are written in the order they are added, so reports diff cleanly.
package struct JSONLine {
    package init() {}

    private var fields: [String] = []

    package mutating func add(_ key: String, _ value: String?) {
        fields.append(Self.quote(key) + ":" + (value.map(Self.quote) ?? "null"))
    }

    package mutating func add(_ key: String, _ value: Int?) {
        fields.append(Self.quote(key) + ":" + (value.map(String.init) ?? "null"))
    }

    package mutating func add(_ key: String, _ value: Double) {
        let rounded = (value * 1000).rounded() / 1000
        fields.append(Self.quote(key) + ":" + (rounded.isFinite ? String(rounded) : "null"))
    }

    package mutating func add(_ key: String, _ value: Bool) {
        fields.append(Self.quote(key) + ":" + (value ? "true" : "false"))
    }

    package mutating func add(_ key: String, _ values: [String]) {
        fields.append(Self.quote(key) + ":[" + values.map(Self.quote).joined(separator: ",") + "]")
    }

    package mutating func add(_ key: String, object: JSONLine) {
        fields.append(Self.quote(key) + ":" + object.text)
    }

    package var text: String { "{" + fields.joined(separator: ",") + "}" }

    /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped.
    package static func quote(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
