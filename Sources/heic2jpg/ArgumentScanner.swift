/// One option a command accepts: its long name, an optional one-letter short form, and
/// the name of its value in messages (`<1-100>`), nil for a flag. An optional value
/// (`--wait`, `--wait=SECONDS`) can only be attached with `=`.
struct OptionSpec: Sendable {
    let long: String
    let short: Character?
    let valueName: String?
    let valueIsOptional: Bool

    init(_ long: String, _ short: Character? = nil, value valueName: String? = nil, optional: Bool = false) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.valueIsOptional = optional
    }

    /// How messages name it: `--quality <1-100>`, `--wait[=<seconds>]`, or as the user spelled it.
    func label(_ spelled: String) -> String {
        guard let valueName else { return spelled }
        return valueIsOptional ? "\(spelled)[=\(valueName)]" : "\(spelled) \(valueName)"
    }
}

/// The one argument loop of every command, following swift-argument-parser's
/// conventions: `--opt value`, `--opt=value`, `-q value`, `-q90`; `--` ends options; `-`
/// alone is an input; an unknown option gets a "Did you mean" suggestion when a known
/// one is a likely typo of it. A separate value that looks like an option (`--report -o
/// out`) is refused rather than taken, since it is almost always a forgotten value;
/// `-` (a standard stream) is a value, and `--report=-o` names a file so spelled.
struct ArgumentScanner {
    /// What one argument (or an option and its value) is.
    enum Token {
        case input(String)
        /// `spelled` is how the user typed the option (`-q`, `--quality`), for messages.
        case option(OptionSpec, spelled: String, value: String?)
    }

    private let options: [OptionSpec]
    private var rest: ArraySlice<String>
    private var onlyInputs = false

    init(_ arguments: ArraySlice<String>, options: [OptionSpec]) {
        self.rest = arguments
        self.options = options
    }

    /// The next token, nil at the end; throws for an unknown option, a value given to a
    /// flag, or a missing value.
    mutating func next() throws(UsageError) -> Token? {
        guard let argument = rest.popFirst() else { return nil }
        if onlyInputs || argument == "-" || !argument.hasPrefix("-") { return .input(argument) }
        if argument == "--" {
            onlyInputs = true
            return try next()
        }
        let (option, spelled, inline) = try resolve(argument)
        guard option.valueName != nil else { return .option(option, spelled: spelled, value: nil) }
        if let inline { return .option(option, spelled: spelled, value: inline) }
        if option.valueIsOptional { return .option(option, spelled: spelled, value: nil) }
        guard let value = rest.popFirst() else { throw .missingValue(option.label(spelled)) }
        if value.hasPrefix("-") && value != "-" { throw .optionAsValue(value, for: option.label(spelled), spelled: spelled) }
        return .option(option, spelled: spelled, value: value)
    }

    /// An option argument's spec, its spelling, and an attached value (`--quality=90`, `-q90`).
    private func resolve(_ argument: String) throws(UsageError) -> (OptionSpec, String, String?) {
        if argument.hasPrefix("--") {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let known = options.first(where: { $0.long == name }) else {
                throw .unknownOption(name, suggestion: suggestion(for: name))
            }
            let inline = parts.count > 1 ? String(parts[1]) : nil
            if inline != nil && known.valueName == nil { throw UsageError(message: "The option '\(name)' does not take a value") }
            return (known, name, inline)
        }
        let letter = argument.dropFirst().first
        guard let known = options.first(where: { $0.short != nil && $0.short == letter }) else {
            throw .unknownOption(argument, suggestion: suggestion(for: argument))
        }
        let attached = String(argument.dropFirst(2))
        if !attached.isEmpty && known.valueName == nil { throw .unknownOption(argument, suggestion: nil) }
        return (known, "-" + String(letter!), attached.isEmpty ? nil : attached)
    }

    /// The known option closest to `name` by edit distance, if it is close enough to be
    /// a typo (at most a third of the name's letters, and at least one, differ).
    private func suggestion(for name: String) -> String? {
        let bare = name.drop { $0 == "-" }
        let scored = options.map { ($0.long, Self.editDistance(Array(bare), Array($0.long.dropFirst(2)))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, bare.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
