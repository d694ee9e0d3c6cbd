import Foundation

/// Runs another program and captures what it printed: the one process runner of the
/// tests (exiftool, ffmpeg and x265 for references, the built heic2jpg).
package enum ChildProcess {
    /// What one run printed, the two streams apart.
    package struct Output {
        package let status: Int32
        package let stdout: Data
        package let stderr: String
        /// It was still running at the deadline and was stopped: `status` says only how.
        package var stopped = false
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` in `workingDirectory` (this process's when nil),
    /// feeding it `stdin` (nothing when nil), and waits for it, whatever its exit status.
    /// Both pipes are drained concurrently, so a chatty child never blocks. With a
    /// deadline (`within` seconds), a child still running then is stopped (SIGTERM, then
    /// SIGKILL after 5 s) and the output says so, so a hang fails a test instead of hanging it.
    package static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                            workingDirectory: String? = nil, within seconds: Double? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        var stopped = false
        if let seconds {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning {
                stopped = true
                // SIGTERM first: heic2jpg's handler stops its workers too.
                kill(process.processIdentifier, SIGTERM)
                let grace = Date().addingTimeInterval(5)
                while process.isRunning && Date() < grace { usleep(10_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
        }
        process.waitUntilExit()
        // A stopped child's own children may still hold the pipes for a moment.
        if seconds != nil { _ = group.wait(timeout: .now() + 10) } else { group.wait() }
        var output = Output(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
        output.stopped = stopped
        return output
    }
}
