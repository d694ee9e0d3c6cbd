#if canImport(Glibc)
import Glibc
#endif
import H2JBatch
import H2JJob
import H2JSupport

/// `heic2jpg compare [--json] [-q N,…] [--max-size BOX,…] [shaping options] <file> ...`:
/// converts each file in both modes (`--metadata keep` and `strip`) at every quality and
/// size asked (`CompareVariant`) in memory, and prints them side by side: the options,
/// size, bytes, ms, engine, EXIF tags kept and dropped, GPS, maker note, XMP, ICC, and
/// Y-PSNR against the decoded source.
///
/// Files are compared one after another, each with every core (as a single-file
/// conversion runs), so the times are comparable; the first is converted once more
/// beforehand, unmeasured (`FileComparison` `warmUp`). A file that cannot be compared gets
/// an `error:` line on stderr, and with `--json` an `{"file","error"}` entry; the others
/// still are; so is a file whose decoder crashes or hangs (every conversion and decode
/// runs in a worker process, as `convert`'s do, with `--timeout` and the default
/// `--max-memory`). Exit code: 0 when every file converted in both modes, 1 otherwise.
package enum CompareCommand {
    /// `program`: the worker's main (`H2JWorker`), which runs the conversions and measures.
    package static func run(_ request: CompareRequest, program: WorkerProgram) -> CommandStatus {
        var options = request.options
        options.decodingThreads = BatchRequest.cpuCount
        let output: MemoryOutputFile
        do {
            output = try MemoryOutputFile()
        } catch {
            POSIX.writeLine("error: \(error)", to: STDERR_FILENO)
            return .failed
        }
        let limits = WorkerLimits(memoryBytes: WorkerLimits.defaultMemory(maxPixels: options.maxPixels), timeoutSeconds: request.timeoutSeconds,
                                  decoder: request.decoder)
        let workers = WorkerSupervisor(prestart: 1, limits: limits, program: program,
                                       destination: PublishedOutput(publisher: OutputPublisher(), standardOutput: output.descriptor))
        defer { workers.shutDown() }
        var failed = false
        var entries: [String] = []
        var warmedUp = false
        for (index, file) in request.files.enumerated() {
            do {
                let comparison = try FileComparison(path: file, variants: request.variants, options: options, workers: workers,
                                                    output: output, warmUp: !warmedUp)
                warmedUp = true
                if request.json {
                    entries.append(CompareJSON.entry(comparison, options: request.options, decoder: request.decoder))
                } else {
                    POSIX.write((index > 0 ? "\n" : "") + CompareText.block(comparison, options: request.options, decoder: request.decoder), to: STDOUT_FILENO)
                }
            } catch {
                failed = true
                POSIX.writeLine("error: \(file): \(error)", to: STDERR_FILENO)
                if request.json { entries.append(CompareJSON.failure(file, "\(error)")) }
            }
        }
        if request.json { POSIX.write(CompareJSON.document(entries), to: STDOUT_FILENO) }
        return failed ? .failed : .succeeded
    }
}
