import H2JInspect
import H2JPipeline

/// Parses the arguments after `inspect` or `compare`, with the same conventions as
/// `CommandLineParser` (`--opt value`, `--opt=value`, `--` ends options).
enum SubcommandParser {
    static func inspect(_ arguments: [String]) throws(UsageError) -> Command {
        if wantsHelp(arguments) { return .help }
        var request = InspectRequest()
        var files: [String] = []
        try parse(arguments, usage: "inspect [--json] [--source <file>] <file> ...",
                  flags: ["--json": { request.json = true }],
                  values: ["--source": { value throws(UsageError) in request.source = value }],
                  files: &files)
        request.files = files
        return .inspect(request)
    }

    static func compare(_ arguments: [String]) throws(UsageError) -> Command {
        if wantsHelp(arguments) { return .help }
        var request = CompareRequest()
        var files: [String] = []
        try parse(arguments, usage: "compare [--json] [-q <1-100>] <file> ...",
                  flags: ["--json": { request.json = true }],
                  values: ["--quality": { text throws(UsageError) in
                      guard let quality = Int(text), (1...100).contains(quality) else {
                          throw .invalidValue(text, for: "--quality <1-100>", "expected a whole number from 1 to 100")
                      }
                      request.quality = quality
                  }],
                  files: &files, aliases: ["-q": "--quality"])
        request.files = files
        return .compare(request)
    }

    /// `-h`/`--help` before any `--`.
    private static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// The shared loop: `flags` take no value, `values` take one; everything else that
    /// does not start with `-` is a file.
    private static func parse(_ arguments: [String], usage: String,
                              flags: [String: () -> Void],
                              values: [String: (String) throws(UsageError) -> Void],
                              files: inout [String], aliases: [String: String] = [:]) throws(UsageError) {
        var rest = arguments[...]
        var onlyFiles = false
        while let argument = rest.popFirst() {
            if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
                files.append(argument)
                continue
            }
            if argument == "--" {
                onlyFiles = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            var name = String(parts[0])
            var inline = parts.count > 1 ? String(parts[1]) : nil
            if let alias = aliases.first(where: { name.hasPrefix($0.key) && !name.hasPrefix("--") }) {
                let attached = String(name.dropFirst(alias.key.count))
                if !attached.isEmpty { inline = attached }
                name = alias.value
            }
            if let flag = flags[name] {
                if inline != nil { throw UsageError(message: "The option '\(name)' does not take a value") }
                flag()
            } else if let take = values[name] {
                if let inline {
                    try take(inline)
                } else {
                    guard let next = rest.popFirst() else { throw .missingValue(name) }
                    try take(next)
                }
            } else {
                let known = Array(flags.keys) + Array(values.keys)
                let close = known.min { CommandLineParser.editDistance(Array(name), Array($0)) < CommandLineParser.editDistance(Array(name), Array($1)) }
                let suggestion = close.flatMap { CommandLineParser.editDistance(Array(name), Array($0)) <= 2 ? $0 : nil }
                throw .unknownOption(name, suggestion: suggestion)
            }
        }
        if files.isEmpty { throw UsageError(message: "Missing expected argument '<file> ...' (usage: heic2jpg \(usage))") }
    }
}
