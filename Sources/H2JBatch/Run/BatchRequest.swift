#if canImport(Glibc)
import Glibc
#endif
import H2JJob
import H2JSupport

/// Everything one `convert` run needs, as parsed from the command line.
package struct BatchRequest: Sendable, Equatable {
    /// Files, directories, or `-` for stdin.
    package var inputs: [String] = []
    /// The output root; nil = next to each source (or `-o FILE.jpg`: `naming`); `.standardStream` = stdout.
    package var output: Endpoint?
    /// `--name TEMPLATE`, or `-o FILE.jpg` (and `IN OUT.jpg`): how the primary output is named.
    package var naming = OutputNaming.template(.standard)
    /// `--jobs`; by default the CPUs this process is given (`ResourceShare`).
    package var jobs = BatchRequest.cpuCount
    /// Whether `--jobs` set `jobs`, for `-v`'s account of where it came from.
    package var jobsGiven = false
    package var options = ConversionOptions()
    /// JSON Lines report: a path, or `.standardStream` for stdout.
    package var report: Endpoint?
    package var verbosity = Reporter.Verbosity.normal
    /// `--max-memory` in bytes; nil = derived from the pixel limit (`WorkerLimits.defaultMemory`).
    package var maxMemory: Int?
    /// `--timeout` in seconds; 0 = none.
    package var timeoutSeconds = WorkerLimits.defaultTimeoutSeconds
    /// `--state FILE`: the run state database.
    package var state: String?
    /// `--wait[=SECONDS]`: how long to wait for another run's lock; nil = not at all.
    package var waitSeconds: Double?
    /// `--files-from FILE|-`: the sources, listed, instead of inputs.
    package var filesFrom: Endpoint?
    /// `-0`/`--null`: the list is NUL-separated rather than newline-separated.
    package var listSeparator = UInt8(ascii: "\n")
    /// `--base DIR`: the directory listed paths are relative to.
    package var base = "."
    /// `--shard K/N`: only this shard's files.
    package var shard: Shard?
    /// `--exclude PATTERN`s: what the walk (or a list) leaves out.
    package var excludes = ExcludePatterns()
    /// `--delete-source` / `--move-source DIR`: hand verified originals off (needs `--state`).
    package var handOff: HandOffAction?
    /// `--recheck`: check every page of the state (`integrity_check`), and re-hash sources and
    /// outputs before calling them up to date (needs `--state`).
    package var recheck = false
    /// `--decoder`: the tile decoder; `CommandLineTool` resolves `auto` before the run.
    package var decoder = TileDecoderChoice.defaultChoice
    /// Why `decoder` was taken, when `auto` chose it (`TileDecoderChoice.autoReason`): the
    /// report's summary carries it.
    package var decoderReason: String?

    /// What sends bytes to stdout, as the user wrote it: `-o -` or `--report -`; nil
    /// when nothing does.
    package var standardOutputUse: String? {
        if output == .standardStream { return "-o -" }
        return report == .standardStream ? "--report -" : nil
    }

    /// The state file, `{shard}` replaced.
    var stateFile: String? { state.map { shard?.stateFile($0) ?? $0 } }

    package init() {}

    /// The CPUs this process is given: its affinity mask and cgroup quota (`ResourceShare`).
    package static var cpuCount: Int { ResourceShare.current.cpus }

    /// `--max-memory`, or by default the pixel limit's (`WorkerLimits.defaultMemory`)
    /// lowered so that the files converted at once fit the cgroup's memory limit together,
    /// but never below what a worker needs to start (`WorkerLimits.minimumMemoryBytes`).
    func workerMemory(share: ResourceShare) -> Int {
        if let maxMemory { return maxMemory }
        let memory = WorkerLimits.defaultMemory(maxPixels: options.maxPixels)
        guard let limit = share.memoryLimit else { return memory }
        return max(WorkerLimits.minimumMemoryBytes, min(memory, limit / concurrentFiles))
    }

    /// What `-v` says of the run's share of the machine: the files converted at once and
    /// each worker's memory, with where each number came from.
    func shareNotes(_ share: ResourceShare) -> [String] {
        let jobsFrom = jobsGiven ? "--jobs" : concurrentFiles < jobs ? "one file" : "\(share.cpus) CPU\(share.cpus == 1 ? "" : "s"): \(share.cpuSource)"
        let memory = workerMemory(share: share)
        let memoryFrom: String
        if maxMemory != nil {
            memoryFrom = "--max-memory"
        } else if let limit = share.memoryLimit, let source = share.memorySource, memory == limit / concurrentFiles {
            memoryFrom = "\(source) (\(WorkerDeath.mebibytes(limit))) over \(concurrentFiles) worker\(concurrentFiles == 1 ? "" : "s")"
        } else {
            memoryFrom = "the pixel limit's default"
        }
        return ["jobs: \(concurrentFiles) (\(jobsFrom))", "memory per worker: \(WorkerDeath.mebibytes(memory)) (\(memoryFrom))"]
    }

    /// Files converted at once: `jobs`, or 1 for a single file (which then gets every
    /// core as decoding threads).
    var concurrentFiles: Int {
        let singleImage = inputs.count == 1 && (inputs[0] == "-" || !Path.isDirectory(inputs[0]))
        return singleImage ? 1 : max(1, jobs)
    }

    /// Each worker process's memory and time limits.
    var workerLimits: WorkerLimits {
        WorkerLimits(memoryBytes: workerMemory(share: .current),
                     timeoutSeconds: timeoutSeconds, outputBytes: WorkerLimits.maxOutputBytes(maxPixels: options.maxPixels),
                     decoder: decoder)
    }
}
