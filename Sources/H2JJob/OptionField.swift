/// One field of `ConversionOptions` as the worker's wire and the state's fingerprint carry
/// it. `ConversionOptions.fields` lists every field once, in this form; the wire encoding
/// (`WorkerJob`), the fingerprint and the tests of both are derived from that list, so a
/// field cannot be carried on one side and forgotten on the other.
package struct OptionField: Sendable {
    /// Whether a field's value is stated in the state's fingerprint (a source converted
    /// with another value is converted again).
    package enum Fingerprint: Sendable, Equatable {
        /// Always, as `key=value`.
        case always
        /// Only when it differs from the default, so that states written before the field
        /// existed still match a default run.
        case unlessDefault
        /// Never: the reason it cannot change what an output holds.
        case never(String)
    }

    /// The stored property, by its name in the declaration (`Mirror` shows the same).
    package let property: String
    /// Its name in the fingerprint.
    package let key: String
    package let fingerprint: Fingerprint
    /// nil when a worker is sent the field; otherwise why the parent keeps it.
    package let parentOnly: String?
    /// Writes the field to a `job` message.
    let write: @Sendable (inout WireWriter, ConversionOptions) -> Void
    /// Reads it back, as hostile input: every value checked.
    let read: @Sendable (inout WireReader, inout ConversionOptions) throws(WireError) -> Void
    /// The value as the fingerprint states it.
    let text: @Sendable (ConversionOptions) -> String
    /// The options with this field changed away from its value: what the tests vary.
    package let varied: @Sendable (ConversionOptions) -> ConversionOptions

    /// Whether the field holds its default value in `options`.
    func isDefault(in options: ConversionOptions) -> Bool {
        text(options) == text(ConversionOptions())
    }

    /// A field of any type, written and read by `encode` and `decode`.
    static func field<Value: Equatable & Sendable>(
        _ property: String, _ key: String, _ path: WritableKeyPath<ConversionOptions, Value> & Sendable,
        fingerprint: Fingerprint = .always, parentOnly: String? = nil,
        encode: @escaping @Sendable (inout WireWriter, Value) -> Void,
        decode: @escaping @Sendable (inout WireReader) throws(WireError) -> Value,
        text: @escaping @Sendable (Value) -> String, vary: @escaping @Sendable (Value) -> Value
    ) -> OptionField {
        OptionField(property: property, key: key, fingerprint: fingerprint, parentOnly: parentOnly,
                    write: { out, options in encode(&out, options[keyPath: path]) },
                    read: { reader, options throws(WireError) in options[keyPath: path] = try decode(&reader) },
                    text: { text($0[keyPath: path]) },
                    varied: { options in
                        var changed = options
                        changed[keyPath: path] = vary(options[keyPath: path])
                        return changed
                    })
    }

    /// A Boolean field.
    static func bool(_ property: String, _ key: String, _ path: WritableKeyPath<ConversionOptions, Bool> & Sendable,
                     fingerprint: Fingerprint = .always, parentOnly: String? = nil) -> OptionField {
        field(property, key, path, fingerprint: fingerprint, parentOnly: parentOnly,
              encode: { $0.bool($1) }, decode: { (r: inout WireReader) throws(WireError) in try r.bool() },
              text: { String($0) }, vary: { !$0 })
    }

    /// A whole-number field, refused on the wire outside `range`.
    static func int(_ property: String, _ key: String, _ path: WritableKeyPath<ConversionOptions, Int> & Sendable,
                    in range: ClosedRange<Int>, fingerprint: Fingerprint = .always) -> OptionField {
        field(property, key, path, fingerprint: fingerprint,
              encode: { $0.int($1) },
              decode: { (r: inout WireReader) throws(WireError) in
                  let value = try r.int()
                  guard range.contains(value) else { throw WireError(reason: "\(property) \(value) out of range") }
                  return value
              },
              text: { String($0) }, vary: { $0 == range.upperBound ? range.lowerBound : $0 + 1 })
    }

    /// A field of named choices, carried by name.
    static func choice<Value: RawRepresentable & CaseIterable & Equatable & Sendable>(
        _ property: String, _ key: String, _ path: WritableKeyPath<ConversionOptions, Value> & Sendable,
        fingerprint: Fingerprint = .always, parentOnly: String? = nil
    ) -> OptionField where Value.RawValue == String {
        field(property, key, path, fingerprint: fingerprint, parentOnly: parentOnly,
              encode: { $0.string($1.rawValue) }, decode: { (r: inout WireReader) throws(WireError) in try r.value(Value.self) },
              text: { $0.rawValue },
              vary: { value in
                  let all = Array(Value.allCases)
                  return all[((all.firstIndex(of: value) ?? 0) + 1) % all.count]
              })
    }
}
