#if FUZZING
import CLibFuzzer

/// libFuzzer's per-input callback. Exported under its C name too, because the `main`
/// object of libclang_rt.fuzzer (linked whole, though unused) refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzedParsers.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Runs libFuzzer on this process's command line (`-max_total_time=…`, corpus dirs, …).
enum LibFuzzer {
    static func run() -> CInt {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
    }
}
#endif
