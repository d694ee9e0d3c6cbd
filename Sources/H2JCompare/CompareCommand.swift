#if canImport(Glibc)
import Glibc
#endif
import H2JBatch
import H2JJob
import H2JSupport

/// `heic2jpg compare [--json] [--html FILE] [-q N,…] [--max-size BOX,…] [shaping options] <file> ...`:
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
/// `--max-memory`). With `--html FILE`, the page `ComparePage` makes is written as well,
/// a file at a time, and put in place when whole (`PageFile`); a failed file is a section
/// with its error. Exit code: 0 when every file converted in both modes, 1 otherwise.
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
        var page: (file: PageFile, summary: [ComparePage.SummaryLine])?
        do {
            page = try request.html.map { path throws(WriteError) in
                let file = try PageFile(path: path, inputs: request.files)
                try file.write(ComparePage.head(files: request.files.count, options: request.options))
                return (file, [])
            }
        } catch {
            POSIX.writeLine("error: --html \(error)", to: STDERR_FILENO)
            return .failed
        }
        var failed = false
        var entries: [String] = []
        var warmedUp = false
        var columns: [String] = []
        for (index, file) in request.files.enumerated() {
            let section: (html: String, summary: ComparePage.SummaryLine)?
            do {
                let comparison = try FileComparison(path: file, variants: request.variants, options: options, workers: workers,
                                                    output: output, warmUp: !warmedUp, pictures: page != nil)
                warmedUp = true
                if request.json {
                    entries.append(CompareJSON.entry(comparison, options: request.options, decoder: request.decoder))
                } else {
                    POSIX.write((index > 0 ? "\n" : "") + CompareText.block(comparison, options: request.options, decoder: request.decoder), to: STDOUT_FILENO)
                }
                columns = comparison.outputs.map { FileComparison.label($0.variant, $0.mode, among: comparison.variants) }
                section = page == nil ? nil : ComparePage.section(comparison, index: index, files: request.files.count, options: request.options, decoder: request.decoder)
            } catch {
                failed = true
                POSIX.writeLine("error: \(file): \(error)", to: STDERR_FILENO)
                if request.json { entries.append(CompareJSON.failure(file, "\(error)")) }
                section = page == nil ? nil : ComparePage.failure(file, "\(error)", index: index)
            }
            guard let section else { continue }
            do {
                try page?.file.write(section.html)
                page?.summary.append(section.summary)
            } catch {
                POSIX.writeLine("error: --html \(error)", to: STDERR_FILENO)
                return .failed
            }
        }
        if request.json { POSIX.write(CompareJSON.document(entries), to: STDOUT_FILENO) }
        if let page {
            do {
                try page.file.write(ComparePage.tail(page.summary, columns: columns))
                try page.file.commit()
            } catch {
                POSIX.writeLine("error: --html \(error)", to: STDERR_FILENO)
                return .failed
            }
        }
        return failed ? .failed : .succeeded
    }
}
