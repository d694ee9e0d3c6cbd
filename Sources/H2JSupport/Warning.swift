/// Something a conversion changed, moved or left out that the user should know: a
/// stable code for machines (the report's `warningCodes`) and a message for people.
/// Nothing the source had is dropped without one.
package struct Warning: Sendable, Equatable, CustomStringConvertible {
    /// A warning's stable token. Each module declares the codes it emits, in an
    /// extension next to the code that emits them; docs/output.md lists them all.
    package struct Code: RawRepresentable, Hashable, Sendable {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package init(_ rawValue: String) { self.rawValue = rawValue }
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
