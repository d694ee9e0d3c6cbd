/// A command line that cannot be run. Printed swift-argument-parser style, exit 64.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }

    static func unknownOption(_ option: String, suggestion: String?) -> UsageError {
        UsageError(message: "Unknown option '\(option)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""))
    }

    static func missingValue(_ option: String) -> UsageError {
        UsageError(message: "Missing value for '\(option)'")
    }

    static func optionAsValue(_ value: String, for option: String, spelled: String) -> UsageError {
        UsageError(message: "Missing value for '\(option)': '\(value)' is an option (write \(spelled)=\(value) if it is the value)")
    }

    static func invalidValue(_ value: String, for option: String, _ why: String? = nil) -> UsageError {
        UsageError(message: "The value '\(value)' is invalid for '\(option)'" + (why.map { ": \($0)" } ?? ""))
    }
}
