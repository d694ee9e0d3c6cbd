import Foundation

/// The built heic2jpg run with a deadline, for runs that must not hang: one still going
/// at the deadline is stopped (SIGTERM, then SIGKILL) and comes back with no status,
/// instead of hanging the test. `redirections` (sh syntax: `>&-`, `2>&-`, `1</dev/null`)
/// are applied by `sh` just before it execs heic2jpg, for runs with a standard stream
/// closed or read-only.
enum BoundedRun {
    struct Outcome {
        /// The exit status; nil when the run was still going at the deadline.
        let status: Int32?
        let stdout: Data
        let stderr: String
    }

    static func run(_ arguments: [String], redirections: String = "", stdin: Data? = nil,
                    within seconds: Double = 60, workingDirectory: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirections)", Tool.binary] + arguments
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
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        var hung = false
        if process.isRunning {
            hung = true
            // SIGTERM first: heic2jpg's handler stops its workers too.
            kill(process.processIdentifier, SIGTERM)
            let grace = Date().addingTimeInterval(5)
            while process.isRunning && Date() < grace { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        _ = group.wait(timeout: .now() + 10)
        return Outcome(status: hung ? nil : process.terminationStatus, stdout: outData,
                       stderr: String(decoding: errData, as: UTF8.self))
    }
}
