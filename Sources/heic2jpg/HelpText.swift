import H2JSupport

/// The help and usage texts, laid out like swift-argument-parser's from
/// `CommandDescription` and `OptionTable`: 80 columns, option help at column 26.
package enum HelpText {
    package static let usage = "heic2jpg " + CommandDescription.convert.synopsis

    /// The help of `topic`: `heic2jpg --help` (or `help`) is the program's overview.
    package static func help(_ topic: HelpTopic) -> String {
        switch topic {
        case .convert: help
        case .inspect: inspectHelp
        case .compare: compareHelp
        case .status: statusHelp
        case .version: versionHelp
        case .watch: watchHelp
        }
    }

    package static let help = render(.convert)
    package static let inspectHelp = render(.inspect)
    package static let compareHelp = render(.compare)
    package static let versionHelp = render(.version)
    package static let statusHelp = render(.status)
    package static let watchHelp = render(.watch)

    /// The three lines printed after a usage error.
    package static func error(_ error: UsageError) -> String {
        "Error: \(error.message)\nUsage: \(usage)\n  See 'heic2jpg --help' for more information.\n"
    }

    static let width = 80
    static let helpColumn = 26

    /// One command's help: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, (SUBCOMMANDS), EXIT CODES.
    static func render(_ command: CommandDescription) -> String {
        var out = wrap("OVERVIEW: " + command.abstract, indent: 0) + "\n\n"
        for paragraph in command.discussion { out += wrap(paragraph, indent: 0) + "\n\n" }
        let usageHead = "USAGE: heic2jpg "
        out += wrap(synopsis: command.synopsis, first: usageHead, indent: usageHead.count + command.name.count + 1) + "\n\n"
        if !command.arguments.isEmpty {
            out += "ARGUMENTS:\n" + command.arguments.map { row($0.label, $0.help) }.joined() + "\n"
        }
        out += "OPTIONS:\n" + command.options.map { row($0.label, $0.fullHelp) }.joined() + "\n"
        if command.name == CommandDescription.convert.name {
            out += "SUBCOMMANDS (heic2jpg help <subcommand> for each one's help):\n"
            for sub in CommandDescription.subcommands {
                out += wrap(synopsis: sub.synopsis, first: "  ", indent: 4) + "\n" + row("", sub.abstract)
            }
            out += "\n"
        }
        out += "EXIT CODES:\n"
        let codeWidth = max(4, (command.exitCodes.map(\.code.count).max() ?? 0) + 1)
        for (code, meaning) in command.exitCodes {
            out += wrap(words: meaning.split(separator: " ").map(String.init), first: "  " + code.padding(to: codeWidth),
                        indent: 2 + codeWidth) + "\n"
        }
        return out + "\n"
    }

    /// `  label                  help…`, the help wrapped at `helpColumn`; a label too
    /// long to leave two spaces puts the help on the next line.
    static func row(_ label: String, _ help: String) -> String {
        let head = "  " + label
        let words = help.split(separator: " ").map(String.init)
        if head.count + 2 > helpColumn {
            return head + "\n" + wrap(words: words, first: "".padding(to: helpColumn), indent: helpColumn) + "\n"
        }
        return wrap(words: words, first: head.padding(to: helpColumn), indent: helpColumn) + "\n"
    }

    /// `text` wrapped at `width` columns, continuation lines indented by `indent`.
    static func wrap(_ text: String, indent: Int) -> String {
        wrap(words: text.split(separator: " ").map(String.init), first: "", indent: indent)
    }

    /// A synopsis wrapped so that no bracketed group (`[--timeout <seconds>]`) is split.
    static func wrap(synopsis: String, first: String, indent: Int) -> String {
        var words: [String] = [], depth = 0, word = ""
        for character in synopsis {
            if character == " " && depth == 0 {
                words.append(word)
                word = ""
                continue
            }
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            word.append(character)
        }
        return wrap(words: words + [word], first: first, indent: indent)
    }

    /// `words` after `first` (its own line's start), a line broken before a word that would pass `width`.
    static func wrap(words: [String], first: String, indent: Int) -> String {
        var lines: [String] = []
        var line = first, fresh = true
        for word in words where !word.isEmpty {
            if !fresh && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
            } else {
                line += (fresh ? "" : " ") + word
            }
            fresh = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters (never truncated).
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
