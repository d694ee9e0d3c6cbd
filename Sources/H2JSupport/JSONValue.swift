/// A JSON document with keys in the order they were given: the package's one JSON
/// writer. `rendered` prints it with two-space indentation (arrays of plain values stay
/// on one line: `inspect`, `compare`), `compact` on one line with no spaces (JSON Lines
/// reports, `JSONLine`). Strings are escaped by `quote`; a number that is not finite
/// is printed as `null`.
package indirect enum JSONValue {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `value` as a string, or `null`.
    package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    /// `value` as an integer, or `null`.
    package static func integer(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
    package static func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }

    /// The text, with nested lines indented by `level` steps.
    package func rendered(level: Int = 0) -> String {
        let inner = String(repeating: "  ", count: level + 1), outer = String(repeating: "  ", count: level)
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return value.isFinite ? String(value) : "null"
        case .string(let value): return Self.quote(value)
        case .array(let values):
            if values.isEmpty { return "[]" }
            if values.allSatisfy(\.isPlain) { return "[" + values.map { $0.rendered() }.joined(separator: ", ") + "]" }
            return "[\n" + values.map { inner + $0.rendered(level: level + 1) }.joined(separator: ",\n") + "\n" + outer + "]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            let lines = fields.map { inner + Self.quote($0.0) + ": " + $0.1.rendered(level: level + 1) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + outer + "}"
        }
    }

    /// The text on one line, no spaces: `{"key":value,…}`.
    package var compact: String {
        switch self {
        case .array(let values): "[" + values.map(\.compact).joined(separator: ",") + "]"
        case .object(let fields): "{" + fields.map { Self.quote($0.0) + ":" + $0.1.compact }.joined(separator: ",") + "}"
        default: rendered()
        }
    }

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

    /// Neither an array nor an object.
    private var isPlain: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
