#if canImport(Glibc)
import Glibc
#endif

/// The `heic2jpg` program: parse, run, and map the outcome to an exit code.
public enum CommandLineTool {
    /// 0 when nothing failed.
    public static let exitSuccess: Int32 = 0
    /// At least one input failed.
    public static let exitFailure: Int32 = 1
    /// EX_USAGE (sysexits.h): the command line was wrong.
    public static let exitUsage: Int32 = 64

    /// Runs with `arguments` (program name excluded) and returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            Reporter.write(HelpText.error(error), to: STDERR_FILENO)
            return exitUsage
        }
        switch command {
        case .help:
            Reporter.write(HelpText.help, to: STDOUT_FILENO)
            return exitSuccess
        case .version:
            Reporter.writeLine(HelpText.version, to: STDOUT_FILENO)
            return exitSuccess
        case .inspect(let request):
            return InspectCommand.run(request)
        case .compare(let request):
            return CompareCommand.run(request)
        case .convert(let request):
            let cleanup = SignalCleanup()
            let summary = BatchRunner.run(request)
            withExtendedLifetime(cleanup) {}
            return summary.failed > 0 ? exitFailure : exitSuccess
        }
    }
}
