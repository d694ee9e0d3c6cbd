import Foundation
import H2JTestSupport
import Testing
@testable import heic2jpg

/// The CLI surface scripts rely on: whole stdout, whole stderr, exit code.
@Suite("End to end: command-line surface")
struct CommandLineEndToEndTests {
    @Test("--help goes to stdout and exits 0")
    func help() throws {
        let outcome = try Tool.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdoutText == HelpText.help)
        #expect(outcome.stderr.isEmpty)
    }

    @Test("Each subcommand's help, from 'help NAME' and from 'NAME --help'")
    func subcommandHelp() throws {
        for (topic, text) in [("inspect", HelpText.inspectHelp), ("compare", HelpText.compareHelp), ("convert", HelpText.help)] {
            for arguments in [["help", topic], [topic, "--help"]] {
                let outcome = try Tool.run(arguments)
                #expect(outcome.status == 0, "\(arguments)")
                #expect(outcome.stdoutText == text, "\(arguments)")
                #expect(outcome.stderr.isEmpty, "\(arguments)")
            }
        }
        #expect(try Tool.run(["help"]).stdoutText == HelpText.help)
    }

    @Test("--report -o out: a usage error, and nothing is written (the -o is not taken as the report's name)")
    func optionAsReportName() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["--report", "-o", scratch.sub("out"), Tool.samples + "/monochrome.heic"],
                                   workingDirectory: scratch.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("Error: Missing value for '--report <file>': '-o' is an option"))
        #expect((try FileManager.default.contentsOfDirectory(atPath: scratch.path)).isEmpty)
    }

    @Test("A usage error prints the three-line block and exits 64")
    func usageError() throws {
        let outcome = try Tool.run(["--qualty", "80", "x.heic"])
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == """
        Error: Unknown option '--qualty'. Did you mean '--quality'?
        Usage: heic2jpg [convert] [<options>] <input> ...
          See 'heic2jpg --help' for more information.

        """)
    }

    @Test("A missing input fails with exit 1 and names it; --quiet then still prints the summary line")
    func missingInput() throws {
        let outcome = try Tool.run(["--quiet", "/nonexistent/photo.heic"])
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.first == "error: /nonexistent/photo.heic: No such file or directory", "\(outcome.stderr)")
        #expect(lines.last?.hasPrefix("heic2jpg: 0 converted, 0 copied, 0 skipped, 1 failed in ") == true, "\(outcome.stderr)")
    }

    @Test("--report - writes JSON Lines to stdout, the summary last")
    func reportToStdout() throws {
        let scratch = TemporaryDirectory()
        let outcome = try Tool.run(["--report", "-", "-o", scratch.sub("out"), Tool.samples + "/monochrome.heic"])
        #expect(outcome.status == 0)
        let lines = outcome.stdoutText.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"source":""#) == true)
        #expect(lines.last?.hasPrefix(#"{"summary":true,"converted":1,"updated":0,"copied":0,"skipped":0,"planned":0,"failed":0,"missingSources":0,"#) == true)
    }
}
