import H2JSupport

/// A JSON document with keys in the order they were given, printed with two-space
/// indentation (arrays of plain values stay on one line). Strings are escaped by
/// `JSONLine.quote`; a number that is not finite is printed as `null`.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `value` as a string, or `null`.
    static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    /// `value` as an integer, or `null`.
    static func integer(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }

    /// The text, with nested lines indented by `level` steps.
    func rendered(level: Int = 0) -> String {
        let inner = String(repeating: "  ", count: level + 1), outer = String(repeating: "  ", count: level)
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return value.isFinite ? String(value) : "null"
        case .string(let value): return JSONLine.quote(value)
        case .array(let values):
            if values.isEmpty { return "[]" }
            if values.allSatisfy(\.isPlain) { return "[" + values.map { $0.rendered() }.joined(separator: ", ") + "]" }
            return "[\n" + values.map { inner + $0.rendered(level: level + 1) }.joined(separator: ",\n") + "\n" + outer + "]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            let lines = fields.map { inner + JSONLine.quote($0.0) + ": " + $0.1.rendered(level: level + 1) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + outer + "}"
        }
    }

    /// Neither an array nor an object.
    private var isPlain: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
