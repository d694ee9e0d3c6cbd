import Foundation

/// The built heic2jpg started in the background, for tests that act on a run while it
/// works: signal it or its worker processes, then wait for it.
final class RunningTool {
    let process = Process()

    /// Starts heic2jpg with `arguments`; its stdout and stderr go to `output` + ".out"
    /// and ".err" when given, and are discarded otherwise. `environment` adds to (or
    /// replaces in) the test's own environment.
    init(_ arguments: [String], output: String? = nil, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: Tool.binary)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let output {
            for suffix in [".out", ".err"] { FileManager.default.createFile(atPath: output + suffix, contents: nil) }
            process.standardOutput = FileHandle(forWritingAtPath: output + ".out")
            process.standardError = FileHandle(forWritingAtPath: output + ".err")
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// The run's worker processes: its children, from /proc.
    var workers: [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // After "pid (comm)": state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// Waits up to `seconds` for the first worker to appear.
    func firstWorker(within seconds: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && process.isRunning {
            if let worker = workers.first { return worker }
            usleep(1000)
        }
        return nil
    }

    /// The exit status, waiting at most `seconds` (then the run is killed and nil returned).
    func wait(within seconds: Double = 120) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }
}
