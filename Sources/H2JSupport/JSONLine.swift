/// Builds one JSON object with fixed key order, for JSON Lines reports: keys are
/// written in the order they are added, so reports diff cleanly. A thin builder over
/// `JSONValue`, printed `compact`.
package struct JSONLine {
    private var fields: [(String, JSONValue)] = []

    package init() {}

    package mutating func add(_ key: String, _ value: String?) {
        fields.append((key, .string(value)))
    }

    package mutating func add(_ key: String, _ value: Int?) {
        fields.append((key, .integer(value)))
    }

    /// Rounded to three decimals (milliseconds, rates).
    package mutating func add(_ key: String, _ value: Double) {
        fields.append((key, .number((value * 1000).rounded() / 1000)))
    }

    package mutating func add(_ key: String, _ value: Bool) {
        fields.append((key, .bool(value)))
    }

    package mutating func add(_ key: String, _ values: [String]) {
        fields.append((key, .array(values.map(JSONValue.string))))
    }

    package mutating func add(_ key: String, integers: [Int]) {
        fields.append((key, .array(integers.map { .integer($0) })))
    }

    package mutating func add(_ key: String, object: JSONLine) {
        fields.append((key, .object(object.fields)))
    }

    package mutating func add(_ key: String, objects: [JSONLine]) {
        fields.append((key, .array(objects.map { .object($0.fields) })))
    }

    package var text: String { JSONValue.object(fields).compact }
}
