#if canImport(Glibc)
import Glibc
#endif

/// The executable's entry: libFuzzer's driver in a fuzzing build (`-D FUZZING`), else
/// `Replay` of the files named on the command line.
///
/// Why not libFuzzer's own `main`: SwiftPM links every Swift executable target with
/// `--defsym main=<module>_main` (so that tests can link executables), and that overrides
/// the `main` which `-sanitize=fuzzer` links in. So this `@main` always exists and, when
/// fuzzing, hands the command line to `LLVMFuzzerRunDriver` itself.
@main
enum EntryPoint {
    static func main() {
        #if FUZZING
        exit(LibFuzzer.run())
        #else
        exit(Replay.run(Array(CommandLine.arguments.dropFirst())))
        #endif
    }
}
