import Foundation

/// Runs another program and captures what it printed: the one process runner of the
/// tests (exiftool, ffmpeg and x265 for references, the built heic2jpg).
package enum ChildProcess {
    /// What one run printed, the two streams apart.
    package struct Output {
        package let status: Int32
        package let stdout: Data
        package let stderr: String
        package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` in `workingDirectory` (this process's when nil),
    /// feeding it `stdin` (nothing when nil), and waits for it, whatever its exit status.
    /// Both pipes are drained concurrently, so a chatty child never blocks.
    package static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                            workingDirectory: String? = nil) throws -> Output {
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
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}
