import Foundation
import H2JTestSupport
import Testing

/// `--generate-man-page` and `--generate-completion-script`, as the package installs
/// them: the page rendered by man(1) lists exactly `--help`'s options, and each shell,
/// given the completion script, offers `--metadata` after `--me` and its values after it.
@Suite("End to end: man page and shell completions")
struct ManPageAndCompletionEndToEndTests {
    static func installed(_ name: String) -> String? {
        ["/usr/bin", "/bin", "/usr/local/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The commands whose help and man page section are compared.
    static let commands = ["convert", "inspect", "compare", "status", "version", "watch"]

    /// The option labels (`-o, --output <dir>`) of one `--help` text's OPTIONS block.
    static func helpOptions(_ help: String) -> Set<String> {
        var labels: Set<String> = [], inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "OPTIONS:" { inOptions = true; continue }
            guard inOptions else { continue }
            if line.isEmpty { break }
            guard line.hasPrefix("  -") else { continue }
            labels.insert(Self.label(String(line.dropFirst(2))))
        }
        return labels
    }

    /// The option labels of the rendered man page, by command: OPTIONS is convert's, and
    /// each `heic2jpg NAME` subsection of COMMANDS a subcommand's.
    static func manOptions(_ page: String) -> [String: Set<String>] {
        var labels: [String: Set<String>] = [:], command: String?
        for raw in page.split(separator: "\n") {
            // groff writes U+2212 for \- and U+2010 where it hyphenates.
            let line = String(raw).replacingOccurrences(of: "\u{2212}", with: "-").replacingOccurrences(of: "\u{2010}", with: "-")
            if !line.hasPrefix(" ") {
                command = line == "OPTIONS" ? "convert" : nil
                if line == "COMMANDS" { command = "" }
                continue
            }
            if command != nil, line.hasPrefix("   heic2jpg "), !line.hasPrefix("    ") {
                command = String(line.dropFirst("   heic2jpg ".count))
                continue
            }
            guard let command, !command.isEmpty, line.hasPrefix("       -"), !line.hasPrefix("        ") else { continue }
            labels[command, default: []].insert(Self.label(String(line.dropFirst(7))))
        }
        return labels
    }

    /// A row's head up to the two spaces before its help, if any.
    static func label(_ text: String) -> String {
        String(text.components(separatedBy: "  ").first ?? text).trimmingCharacters(in: .whitespaces)
    }

    @Test("man -l renders the generated page without a warning, and its options are --help's, both ways, for each command",
          .enabled(if: installed("man") != nil, "man (man-db) is not installed: Scripts/setup --test"))
    func manPageMatchesHelp() throws {
        let scratch = TemporaryDirectory()
        let generated = try Tool.run(["--generate-man-page"])
        #expect(generated.status == 0 && generated.stderr.isEmpty)
        let page = scratch.sub("heic2jpg.1")
        try generated.stdout.write(to: URL(fileURLWithPath: page))
        let rendered = try Tool.run(["MANWIDTH=200", Self.installed("man")!, "--warnings", "-l", page], executable: "/usr/bin/env")
        #expect(rendered.status == 0)
        #expect(rendered.stderr.isEmpty, "man --warnings: \(rendered.stderr)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "FILES", "EXAMPLES", "SEE ALSO"] {
            #expect(rendered.stdoutText.contains("\n\(section)\n"), "no \(section) section")
        }
        for text in ["128+N", "STATE.lock", ".heic2jpg-HOST-PID-N.tmp", "69"] {
            #expect(rendered.stdoutText.contains(text), "the page does not mention \(text)")
        }
        // Both devices: a C locale (a fresh Debian root) renders for ASCII.
        if let groff = Self.installed("groff") {
            for device in ["utf8", "ascii"] {
                let strict = try Tool.run(["-ww", "-man", "-T" + device, page], executable: groff)
                #expect(strict.status == 0 && strict.stderr.isEmpty, "groff -ww -T\(device): \(strict.stderr)")
            }
        }
        let man = Self.manOptions(rendered.stdoutText)
        #expect(Set(man.keys) == Set(Self.commands), "man page commands: \(man.keys.sorted())")
        for command in Self.commands {
            let help = Self.helpOptions(try Tool.run(["help", command]).stdoutText)
            let inMan = man[command] ?? []
            #expect(help.count >= 2, "no options parsed from \(command)'s help")
            #expect(help.subtracting(inMan).isEmpty, "\(command): in --help, not in the man page: \(help.subtracting(inMan).sorted())")
            #expect(inMan.subtracting(help).isEmpty, "\(command): in the man page, not in --help: \(inMan.subtracting(help).sorted())")
        }
        #expect(man["convert"]?.contains("--metadata <mode>") == true && man["convert"]?.contains("-o, --output <dir>") == true)
    }

    /// What bash's completion function offers for `words` (the last is the one completed).
    static func bashOffers(_ script: String, _ words: [String]) throws -> [String] {
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=(); _heic2jpg 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\""
        return try Tool.run(["--norc", "--noprofile", "-c", program], executable: installed("bash")!).stdoutText
            .split(separator: "\n").map(String.init)
    }

    @Test("bash: the completion offers --metadata after --me, keep and strip after --metadata, and files, directories, subcommands",
          .enabled(if: installed("bash") != nil, "bash is not installed"))
    func bashCompletion() throws {
        let scratch = TemporaryDirectory()
        let script = scratch.sub("heic2jpg.bash")
        let generated = try Tool.run(["--generate-completion-script", "bash"])
        #expect(generated.status == 0)
        try generated.stdout.write(to: URL(fileURLWithPath: script))
        #expect(try Self.bashOffers(script, ["heic2jpg", "--me"]) == ["--metadata"])
        #expect(try Self.bashOffers(script, ["heic2jpg", "--metadata", ""]) == ["keep", "strip"])
        #expect(try Self.bashOffers(script, ["heic2jpg", "--metadata", "=", ""]) == ["keep", "strip"], "--metadata=")
        #expect(try Self.bashOffers(script, ["heic2jpg", "--hdr", "u"]) == ["ultrahdr"])
        #expect(try Self.bashOffers(script, ["heic2jpg", "--aux", "depth,ma"]) == ["depth,matte"])
        #expect(try Self.bashOffers(script, ["heic2jpg", "inspect", "--so"]) == ["--source"])
        #expect(try Self.bashOffers(script, ["heic2jpg", "compare", "--me"]) == [], "compare takes no --metadata")
        #expect(try Self.bashOffers(script, ["heic2jpg", "sta"]) == ["status"])
        #expect(try Self.bashOffers(script, ["heic2jpg", "help", "in"]) == ["inspect"])
        try FileManager.default.createDirectory(atPath: scratch.sub("outdir"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: scratch.sub("outfile"), contents: Data()))
        #expect(try Self.bashOffers(script, ["heic2jpg", "-o", scratch.sub("out")]) == [scratch.sub("outdir")], "-o takes a directory")
        try FileManager.default.createDirectory(atPath: scratch.sub("two words"), withIntermediateDirectories: true)
        #expect(try Self.bashOffers(script, ["heic2jpg", "inspect", scratch.sub("two")]) == [scratch.sub("two words")], "one candidate")
        #expect(try Self.bashOffers(script, ["heic2jpg", "--report", scratch.sub("out")]).sorted() == [scratch.sub("outdir"), scratch.sub("outfile")])
    }

    /// Drives an interactive zsh through zsh/zpty: compinit with the script's directory
    /// on fpath, `compadd` wrapped to print each candidate, then the line and a Tab.
    static let zshCapture = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z "PROMPT= ; RPROMPT= ; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
    zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; local r=$?; (( $#__hits )) && print -rl -- "<h""it>"${^__hits}; return r }'
    zpty -w z 'comprun () { zle complete-word; print -r -- "<do""ne>"; }; zle -N comprun; bindkey "^I" comprun'
    zpty -w z "$2"$'\t'
    integer lines=0
    while zpty -r z line; do
      [[ $line == *'<done>'* ]] && break
      [[ $line == *'<hit>'* ]] && print -r -- ${${line##*<hit>}%%$'\r'*}
      (( ++lines > 5000 )) && break
    done
    zpty -d z
    """#

    @Test("zsh: the completion (autoloaded from fpath) offers --metadata after --me, keep and strip after --metadata",
          .enabled(if: installed("zsh") != nil, "zsh is not installed: Scripts/setup --test"))
    func zshCompletion() throws {
        let scratch = TemporaryDirectory()
        let functions = scratch.sub("functions")
        try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
        let generated = try Tool.run(["--generate-completion-script", "zsh"])
        #expect(generated.status == 0)
        try generated.stdout.write(to: URL(fileURLWithPath: functions + "/_heic2jpg"))
        try Self.zshCapture.write(toFile: scratch.sub("capture.zsh"), atomically: true, encoding: .utf8)
        func offers(_ line: String) throws -> [String] {
            let outcome = try ChildProcess.run(Self.installed("zsh")!, ["-f", scratch.sub("capture.zsh"), functions, line], within: 60)
            #expect(!outcome.stopped, "zsh did not finish completing '\(line)'")
            return outcome.stdoutText.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
        #expect(try offers("heic2jpg --me") == ["--metadata"])
        #expect(try offers("heic2jpg --metadata ").sorted() == ["keep", "strip"])
        #expect(try offers("heic2jpg inspect --st") == ["--stereo"])
    }

    @Test("fish: the completion offers --metadata after --me, keep and strip after --metadata",
          .enabled(if: installed("fish") != nil, "fish is not installed: Scripts/setup --test"))
    func fishCompletion() throws {
        let scratch = TemporaryDirectory()
        let script = scratch.sub("heic2jpg.fish")
        let generated = try Tool.run(["--generate-completion-script", "fish"])
        #expect(generated.status == 0)
        try generated.stdout.write(to: URL(fileURLWithPath: script))
        func offers(_ line: String) throws -> [String] {
            let outcome = try Tool.run(["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"], executable: Self.installed("fish")!)
            #expect(outcome.stderr.isEmpty, "fish: \(outcome.stderr)")
            // Each candidate, then a tab and its description.
            return outcome.stdoutText.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try offers("heic2jpg --me") == ["--metadata"])
        #expect(try offers("heic2jpg --metadata ") == ["keep", "strip"])
        #expect(try offers("heic2jpg --aux depth,ma") == ["depth,matte"])
        #expect(try offers("heic2jpg ins") == ["inspect"])
        #expect(try offers("heic2jpg compare --me") == [])
    }
}
