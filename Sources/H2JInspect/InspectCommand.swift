#if canImport(Glibc)
import Glibc
#endif
import H2JDigest
import H2JMetadata
import H2JOutputPlan
import H2JSupport

/// `heic2jpg inspect [--json] [--source FILE] [output options] <file>...`: describes HEIF
/// and JPEG files without decoding them (`ImageInspection`), with the files a conversion
/// with the output options would write, and with `--source` checks that each carries a
/// provenance mark naming that source's SHA-256 (computed once per run).
///
/// Text mode prints a dump per file as it goes (a blank line between files) and an
/// `error:` line on stderr for each file that fails; `--json` prints one array when every file is done. Exit status 1
/// when any file failed, would fail to convert, or (with `--source`) has no mark or a
/// mark for another source.
package enum InspectCommand {
    package static func run(_ request: InspectRequest) -> CommandStatus {
        var digest: String?
        if let source = request.source {
            do {
                digest = try SourceDigest.hex(ofFileAt: source)
            } catch {
                POSIX.writeLine("error: \(source): --source: \(error)", to: STDERR_FILENO)
                return .failed
            }
        }
        var failed = false, printed = false
        var json: [String] = []
        for file in request.files {
            let outcome = inspect(file, sourceDigest: digest, outputs: request.outputs)
            failed = failed || outcome.failed
            if request.json {
                json.append(outcome.json)
            } else if let error = outcome.error {
                POSIX.writeLine("error: " + InspectText.printable("\(file): \(error)"), to: STDERR_FILENO)
            } else {
                POSIX.write((printed ? "\n" : "") + outcome.text, to: STDOUT_FILENO)
                printed = true
            }
        }
        if request.json {
            POSIX.writeLine("[\n  " + json.joined(separator: ",\n  ") + "\n]", to: STDOUT_FILENO)
        }
        return failed ? .failed : .succeeded
    }

    /// One file's outcome; `sourceDigest` is the `--source` file's SHA-256, when given;
    /// `outputs`, the options a HEIF file's outputs are planned with.
    static func inspect(_ file: String, sourceDigest: String?, outputs: OutputChoices = OutputChoices()) -> InspectOutcome {
        var outcome: InspectOutcome
        do {
            outcome = InspectOutcome(file: file, properties: try ImageInspection.describe(path: file, outputs: outputs))
        } catch {
            return InspectOutcome(file: file, error: error.description)
        }
        if let sourceDigest {
            outcome.sourceMatches = outcome.properties?.provenance?.sourceSHA256 == sourceDigest
        }
        return outcome
    }
}
